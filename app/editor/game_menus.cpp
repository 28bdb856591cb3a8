#include "game_menus.h"

#include "document/edit_commands.h"
#include "editor.h"
#include "io/game_profile.h"

#include <QActionGroup>
#include <QMenu>

namespace shallot {

namespace {

constexpr std::pair<Game, const char*> kGameActions[] = {
    {Game::Quake, "gameQuake"}, {Game::Quake2, "gameQuake2"}, {Game::HalfLife, "gameHalfLife"}, {Game::Quake3, "gameQuake3"}};

// Every single contents bit, in contentsName's order (a bit without a name reads "nonsolid").
std::vector<BrushContents> contentsBits() {
    std::vector<BrushContents> bits;
    for (uint32_t k = 0; k < 32; ++k)
        if (contentsName(BrushContents(1u << k)) != contentsName(BrushContents::NonSolid)) bits.push_back(BrushContents(1u << k));
    return bits;
}

QString actionName(BrushContents contents) {
    QString name = QString::fromStdString(contentsName(contents));
    name[0] = name[0].toUpper();
    return "contents" + name;
}

// The selected brushes with `change` applied to each one's contents, pushed as one step.
template <class Change>
void changeSelectedContents(EditorDocument& doc, const QString& text, Change change) {
    std::vector<Brush> changed;
    bool any = false;
    for (int i : doc.selection()) {
        Brush b = doc.brushes()[size_t(i)];
        const BrushContents before = b.contents;
        b.contents = change(before);
        any = any || b.contents != before;
        changed.push_back(std::move(b));
    }
    if (any) doc.undoStack()->push(replaceInPlace(&doc, text, doc.selection(), changed));
}

void addGameMenu(QMenu* edit, Editor& editor) {
    QMenu* menu = edit->addMenu("&Game");
    auto* group = new QActionGroup(menu);
    EditorDocument& doc = editor.document();
    for (const auto& [game, name] : kGameActions) {
        QAction* a = menu->addAction(gameTitle(game));
        a->setObjectName(name);
        a->setCheckable(true);
        a->setToolTip("The level's contents rules and default poses (poses of your own stay)");
        group->addAction(a);
        QObject::connect(a, &QAction::triggered, menu, [&doc, game] {
            if (doc.data().game != game) doc.undoStack()->push(new SetGameCommand(&doc, game));
        });
    }
    auto refresh = [&doc, group] {
        for (QAction* a : group->actions())
            for (const auto& [game, name] : kGameActions)
                if (a->objectName() == name) a->setChecked(doc.data().game == game);
    };
    QObject::connect(&doc, &EditorDocument::gameChanged, menu, refresh);
    refresh();
}

void addContentsMenu(QMenu* edit, Editor& editor) {
    QMenu* menu = edit->addMenu("&Contents");
    EditorDocument& doc = editor.document();
    QAction* shown = menu->addAction(QString());
    shown->setObjectName("contentsOfSelection");
    shown->setEnabled(false);
    menu->addSeparator();
    QAction* none = menu->addAction("nonsolid (blocks nothing)");
    none->setObjectName(actionName(BrushContents::NonSolid));
    QObject::connect(none, &QAction::triggered, menu, [&doc] {
        changeSelectedContents(doc, "Contents: nonsolid", [](BrushContents) { return BrushContents::NonSolid; });
    });
    std::vector<std::pair<BrushContents, QAction*>> toggles;
    for (BrushContents bit : contentsBits()) {
        QAction* a = menu->addAction(QString::fromStdString(contentsName(bit)));
        a->setObjectName(actionName(bit));
        a->setCheckable(true);
        toggles.emplace_back(bit, a);
        QObject::connect(a, &QAction::triggered, menu, [&doc, bit] {
            // On for every selected brush unless all have it already, then off for all.
            const bool allHave = std::all_of(doc.selection().begin(), doc.selection().end(),
                                             [&](int i) { return intersects(doc.brushes()[size_t(i)].contents, bit); });
            const QString text = QString("Contents: %1 %2").arg(allHave ? "no" : "", QString::fromStdString(contentsName(bit)));
            changeSelectedContents(doc, text.simplified(), [&](BrushContents c) { return allHave ? withoutContents(c, bit) : c | bit; });
        });
    }
    // The checks and the first line show the selection's contents (a bit is checked when
    // every selected brush has it).
    auto refresh = [&doc, shown, none, toggles] {
        const auto& sel = doc.selection();
        std::optional<BrushContents> common;
        bool mixed = false;
        for (int i : sel) {
            const BrushContents c = doc.brushes()[size_t(i)].contents;
            mixed = mixed || (common && *common != c);
            common = c;
        }
        shown->setText(sel.empty() ? "No brush selected"
                       : mixed     ? QString("Selection: mixed contents (%1 brushes)").arg(sel.size())
                                   : QString("Selection: %1").arg(QString::fromStdString(contentsName(*common))));
        none->setEnabled(!sel.empty());
        for (const auto& [bit, a] : toggles) {
            a->setEnabled(!sel.empty());
            a->setChecked(!sel.empty() && std::all_of(sel.begin(), sel.end(), [&](int i) {
                return intersects(doc.brushes()[size_t(i)].contents, bit);
            }));
        }
    };
    QObject::connect(&doc, &EditorDocument::selectionChanged, menu, refresh);
    QObject::connect(&doc, &EditorDocument::brushesChanged, menu, refresh);
    refresh();
}

} // namespace

void addGameMenus(QMenu* edit, Editor& editor) {
    addGameMenu(edit, editor);
    addContentsMenu(edit, editor);
}

} // namespace shallot
