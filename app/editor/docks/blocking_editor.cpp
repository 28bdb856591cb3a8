#include "docks/blocking_editor.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace shallot {

namespace {
constexpr int kContentsBits = 13;   // BrushContents: Solid (bit 0) .. Trigger (bit 12)
constexpr int kBoxColumns = 3;      // check boxes per row: a narrow editor beside a narrow dock
} // namespace

BlockingEditor::BlockingEditor(const QString& poseName, std::optional<BrushContents> blocking, QWidget* parent)
    : QDialog(parent) {
    setObjectName("blockingEditor");
    setWindowTitle(QString("What blocks %1").arg(poseName));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(QString("Brushes of these contents block <b>%1</b>:").arg(poseName.toHtmlEscaped()), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    gameRule_ = new QCheckBox("The game's rule (solid and window, and clip for a box)", this);
    gameRule_->setObjectName("default");
    gameRule_->setChecked(!blocking);
    layout->addWidget(gameRule_);
    auto* grid = new QGridLayout;
    for (int bit = 0; bit < kContentsBits; ++bit) {
        const auto contents = BrushContents(1u << bit);
        auto* box = new QCheckBox(QString::fromStdString(contentsName(contents)), this);
        box->setObjectName(box->text());
        box->setChecked(blocking && intersects(*blocking, contents));
        box->setEnabled(bool(blocking));
        grid->addWidget(box, bit / kBoxColumns, bit % kBoxColumns);
        bits_.emplace_back(contents, box);
    }
    layout->addLayout(grid);
    connect(gameRule_, &QCheckBox::toggled, this, [this](bool rule) {
        for (const auto& [contents, box] : bits_) box->setEnabled(!rule);
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

std::optional<BrushContents> BlockingEditor::blocking() const {
    if (gameRule_->isChecked()) return std::nullopt;
    BrushContents set = BrushContents::NonSolid;
    for (const auto& [contents, box] : bits_)
        if (box->isChecked()) set = set | contents;
    return set;
}

QCheckBox* BlockingEditor::box(const QString& name) const {
    if (name == gameRule_->objectName()) return gameRule_;
    for (const auto& [contents, box] : bits_)
        if (box->objectName() == name) return box;
    return nullptr;
}

} // namespace shallot
