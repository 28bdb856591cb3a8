#pragma once
// Click in a 2D view to inspect the compiled tree's leaf there (see LeafInspector); the
// point is placed like a ray's start.
#include "tools/tool.h"

namespace shallot {

class InspectTool : public Tool {
public:
    using Tool::Tool;
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint& p) override { press(p); }
    void release(const ViewPoint&) override {}
};

} // namespace shallot
