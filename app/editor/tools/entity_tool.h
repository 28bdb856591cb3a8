#pragma once
// Click in a 2D view to place a new entity of the chosen class: at the cursor on the grid,
// standing on the floor below it (its class's box resting on the highest brush top under
// its origin). In the top view the floor is the one under the cursor nearest below the
// view's working height, as for rays; a click inside a brush at that height puts the
// entity there, in the brush, as clicked (the spawn checks flag it). One undo step; the
// new entity is selected.
#include "tools/tool.h"

#include <string>

namespace shallot {

class EntityTool : public Tool {
public:
    using Tool::Tool;
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint&) override {}
    void release(const ViewPoint&) override {}

    const std::string& classname() const { return classname_; }
    void setClassname(std::string classname) { classname_ = std::move(classname); }

private:
    std::string classname_ = "info_player_start";
};

} // namespace shallot
