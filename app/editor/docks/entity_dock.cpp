#include "docks/entity_dock.h"

#include "document/edit_commands.h"
#include "editor.h"
#include "tools/entity_tool.h"
#include "document/entity_edits.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace shallot {

namespace {
constexpr int kOldKeyRole = Qt::UserRole + 1; // the key a row showed before an edit
}

EntityDock::EntityDock(Editor& editor, QWidget* parent) : QDockWidget("Entity", parent), editor_(editor) {
    setObjectName("EntityDock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    auto* placeRow = new QHBoxLayout;
    classes_ = new QComboBox(body);
    classes_->setObjectName("entityClass");
    classes_->setEditable(true);
    classes_->setInsertPolicy(QComboBox::NoInsert);
    classes_->setToolTip("Class of the entities the Entity tool (N) places: click in a 2D view, the entity stands on the floor below");
    auto* place = new QPushButton("Place", body);
    place->setToolTip("Switch to the Entity tool (N) to place this class with a click in a 2D view");
    placeRow->addWidget(classes_, 1);
    placeRow->addWidget(place);
    layout->addLayout(placeRow);
    summary_ = new QLabel(body);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    keys_ = new QTableWidget(0, 2, body);
    keys_->setObjectName("entityKeys");
    keys_->setHorizontalHeaderLabels({"Key", "Value"});
    keys_->horizontalHeader()->setStretchLastSection(true);
    keys_->verticalHeader()->hide();
    layout->addWidget(keys_, 1);
    auto* buttons = new QHBoxLayout;
    add_ = new QPushButton("Add key", body);
    add_->setObjectName("addKey");
    add_->setToolTip("Add a key to the selected entities");
    remove_ = new QPushButton("Remove key", body);
    remove_->setObjectName("removeKey");
    remove_->setToolTip("Remove the selected row's key from the selected entities");
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    layout->addLayout(buttons);
    setWidget(body);

    auto toolClass = [this] { static_cast<EntityTool&>(*editor_.toolOf(ToolKind::Entity)).setClassname(classes_->currentText().toStdString()); };
    connect(classes_, &QComboBox::currentTextChanged, this, toolClass);
    connect(place, &QPushButton::clicked, this, [this, toolClass] {
        toolClass();
        editor_.setActiveTool(ToolKind::Entity);
    });
    connect(keys_, &QTableWidget::cellChanged, this, &EntityDock::keyEdited);
    connect(add_, &QPushButton::clicked, this, &EntityDock::addKey);
    connect(remove_, &QPushButton::clicked, this, &EntityDock::removeKey);
    // Queued: an edit typed into the table changes the entities from inside the table's
    // cellChanged, and refilling the table there would delete the item being edited.
    connect(&editor_.document(), &EditorDocument::selectionChanged, this, &EntityDock::refreshKeys, Qt::QueuedConnection);
    connect(&editor_.document(), &EditorDocument::entitiesChanged, this, &EntityDock::refreshKeys, Qt::QueuedConnection);
    connect(&editor_.document(), &EditorDocument::entityDefinitionsChanged, this, &EntityDock::refillClasses);
    refillClasses();
    refreshKeys();
}

void EntityDock::refillClasses() {
    const QString current = classes_->currentText();
    const QSignalBlocker block(classes_);
    classes_->clear();
    std::vector<const EntityClass*> sorted;
    for (const EntityClass& c : editor_.entityClasses().classes())
        if (!c.solidClass) sorted.push_back(&c);
    std::sort(sorted.begin(), sorted.end(), [](const EntityClass* a, const EntityClass* b) {
        return std::tie(a->category, a->name) < std::tie(b->category, b->name);
    });
    for (const EntityClass* c : sorted) {
        classes_->addItem(QString::fromStdString(c->name));
        classes_->setItemData(classes_->count() - 1, QString::fromStdString(c->description.empty() ? categoryName(c->category) : c->description),
                              Qt::ToolTipRole);
    }
    const int at = classes_->findText(current.isEmpty() ? "info_player_start" : current);
    classes_->setCurrentIndex(at >= 0 ? at : 0);
}

void EntityDock::refreshKeys() {
    refreshing_ = true;
    const auto& selection = editor_.document().entitySelection();
    keys_->setRowCount(0);
    if (selection.empty()) {
        summary_->setText("No entity selected. Select one (click its box) to edit its keys; choose a class above and press Place to add one.");
    } else {
        const MapEntity& first = editor_.document().entities()[size_t(selection.front())];
        summary_->setText(selection.size() == 1 ? QString("%1 (entity %2)").arg(QString::fromStdString(first.classname())).arg(selection.front() + 1)
                                                : QString("%1 entities selected: the keys of the first; edits apply to all").arg(selection.size()));
        for (const auto& [key, value] : first.keys) {
            const int row = keys_->rowCount();
            keys_->insertRow(row);
            auto* k = new QTableWidgetItem(QString::fromStdString(key));
            k->setData(kOldKeyRole, QString::fromStdString(key));
            keys_->setItem(row, 0, k);
            keys_->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(value)));
        }
    }
    add_->setEnabled(!selection.empty());
    remove_->setEnabled(!selection.empty());
    refreshing_ = false;
}

void EntityDock::applyKey(const std::string& oldKey, const std::string& key, const std::string& value) {
    EditorDocument& doc = editor_.document();
    std::vector<MapEntity> edited;
    for (int e : doc.entitySelection()) {
        MapEntity entity = doc.entities()[size_t(e)];
        if (oldKey != key)
            entity.keys.erase(std::remove_if(entity.keys.begin(), entity.keys.end(), [&](const auto& kv) { return kv.first == oldKey; }),
                              entity.keys.end());
        edited.push_back(key.empty() ? entity : withKey(std::move(entity), key, value));
    }
    doc.undoStack()->push(replaceEntitiesInPlace(&doc, QString("Set %1").arg(QString::fromStdString(key.empty() ? oldKey : key)),
                                                 doc.entitySelection(), edited));
}

void EntityDock::keyEdited(int row, int) {
    if (refreshing_) return;
    const QTableWidgetItem* k = keys_->item(row, 0);
    const QTableWidgetItem* v = keys_->item(row, 1);
    if (!k || !v) return;
    const std::string oldKey = k->data(kOldKeyRole).toString().toStdString();
    const std::string key = k->text().trimmed().toStdString();
    if (key.empty()) { // a key cannot be empty: put the old one back
        refreshKeys();
        return;
    }
    applyKey(oldKey.empty() ? key : oldKey, key, v->text().toStdString());
}

void EntityDock::addKey() {
    const auto& selection = editor_.document().entitySelection();
    if (selection.empty()) return;
    // A new key with a name not in use; the designer renames it in place.
    std::string key = "key";
    const MapEntity& first = editor_.document().entities()[size_t(selection.front())];
    for (int n = 2; first.value(key); ++n) key = "key" + std::to_string(n);
    applyKey(key, key, "");
    refreshKeys(); // now, not from the event loop: the new row is edited at once
    const auto found = keys_->findItems(QString::fromStdString(key), Qt::MatchExactly);
    if (!found.isEmpty()) keys_->editItem(found.front());
}

void EntityDock::removeKey() {
    const int row = keys_->currentRow();
    if (row < 0 || !keys_->item(row, 0)) return;
    const std::string key = keys_->item(row, 0)->data(kOldKeyRole).toString().toStdString();
    if (key == "classname") return; // an entity without a class is no entity
    applyKey(key, "", "");
}

} // namespace shallot
