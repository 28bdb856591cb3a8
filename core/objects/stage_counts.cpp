#include "objects/stage_counts.h"

namespace shallot {

const char* collisionStageName(CollisionStage stage) {
    switch (stage) {
    case CollisionStage::Grid: return "grid cell";
    case CollisionStage::Sphere: return "bounding spheres";
    case CollisionStage::Box: return "boxes";
    case CollisionStage::Exact: return "plane/tree";
    }
    return "?";
}

} // namespace shallot
