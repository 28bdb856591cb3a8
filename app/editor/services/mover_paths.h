#pragma once
// View > Mover Paths (issue 40): where the level's doors, plats, trains and buttons go
// (render/mover_paths_batch.h), from the document's entities, rebuilt when they change.
#include <QObject>

namespace shallot {

class Editor;

class MoverPaths : public QObject {
    Q_OBJECT
public:
    explicit MoverPaths(Editor& editor);
    void setOn(bool on);
    bool isOn() const { return on_; }
    // Movers drawn (those that move), for tests.
    size_t drawnMovers() const { return drawn_; }

private:
    void rebuild();

    Editor& editor_;
    bool on_ = false;
    size_t drawn_ = 0;
};

} // namespace shallot
