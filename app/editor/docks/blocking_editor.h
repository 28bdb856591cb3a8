#pragma once
// The editor a pose's "Blocked by" summary opens (Poses dock): one check box per contents,
// and "the game's rule" for a pose without a set of its own.
#include "world/contents.h"

#include <QDialog>
#include <optional>

class QCheckBox;

namespace shallot {

class BlockingEditor : public QDialog {
    Q_OBJECT
public:
    // Shows `blocking` (unset: the game's rule) for the pose named `poseName`.
    BlockingEditor(const QString& poseName, std::optional<BrushContents> blocking, QWidget* parent);
    // What is ticked: unset for the game's rule.
    std::optional<BrushContents> blocking() const;
    // The check box of one contents bit ("solid", "monsterclip": contentsName), or of the
    // game's rule ("default").
    QCheckBox* box(const QString& name) const;

private:
    QCheckBox* gameRule_;
    std::vector<std::pair<BrushContents, QCheckBox*>> bits_;
};

} // namespace shallot
