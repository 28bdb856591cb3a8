#pragma once
// The Too dark overlay (issue 41): the current pose's walkable floors where the level's
// light is under the document's dark limit (render/too_dark_batch.h), from the newest
// lighting (light_service.h, which lights the level while this is on) and the newest
// walkable meshes. Built on a pool thread; the newest request wins.
#include <QObject>
#include <cstdint>
#include <memory>

namespace shallot {

class Editor;
struct LevelLighting;

class TooDarkOverlay : public QObject {
    Q_OBJECT
public:
    explicit TooDarkOverlay(Editor& editor);
    void setOn(bool on);
    bool isOn() const { return on_; }
    // Triangles of the dark cells drawn (for tests).
    size_t drawnTriangles() const { return drawnTriangles_; }
    // What is drawn is of the newest lighting (false while off).
    bool current() const;

signals:
    void shown();

private:
    void rebuild();

    Editor& editor_;
    bool on_ = false;
    bool running_ = false, pending_ = false;
    size_t drawnTriangles_ = 0;
    std::weak_ptr<const LevelLighting> drawnLighting_;
};

} // namespace shallot
