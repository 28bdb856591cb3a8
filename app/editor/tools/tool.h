#pragma once
// A tool receives mouse and key events from the 2D views in world coordinates.
#include "geometry/plane.h"

#include <Qt>

class QKeyEvent;

namespace shallot {

class Editor;

// A mouse event seen by a 2D view: the point under the cursor on the view plane.
struct ViewPoint {
    Vec3 world;       // under the cursor, depth = the view plane's depth (0 unless set)
    int uAxis = 0;    // world axis to the right on screen
    int vAxis = 1;    // world axis up on screen
    int depthAxis = 2;// world axis along the view direction
    double depthSign = 1.0; // +1 when the viewer looks from the + side of depthAxis
    double pixelSize = 1.0; // world units per pixel, for pick tolerances
    // The view shows the level cut at world[depthAxis] (sections on): picks prefer what the
    // plane cuts, then what lies beyond it, as drawn.
    bool cutsAtDepth = false;
    Qt::KeyboardModifiers modifiers;
};

class Tool {
public:
    explicit Tool(Editor& editor) : editor_(editor) {}
    virtual ~Tool() = default;
    // Returns true when the tool takes the drag that follows.
    virtual bool press(const ViewPoint& p) = 0;
    virtual void drag(const ViewPoint& p) = 0;
    virtual void release(const ViewPoint& p) = 0;
    virtual bool key(QKeyEvent*) { return false; }
    virtual void cancel() {}

protected:
    Editor& editor_;
};

} // namespace shallot
