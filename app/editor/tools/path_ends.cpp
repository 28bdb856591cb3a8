#include "tools/path_ends.h"

#include "editor.h"
#include "nav/standing_place.h"
#include "services/overlay_controller.h"
#include "tools/view_picking.h"

namespace shallot {

PathEnd placePathEnd(const Editor& editor, const ViewPoint& p) {
    const int pose = editor.currentPose();
    const auto& meshes = editor.overlays().nav().meshes();
    const NavMesh* mesh = meshes ? meshes->mesh(pose) : nullptr;
    if (p.depthAxis != 2 || !mesh) return {placeInView(editor, p), {}};
    const BspTree& tree = meshes->world->result->onion;
    Vec3 cursor = editor.snap(p.world);
    // Heights of the pose's reference point: its feet at the working height.
    const double working = p.world.z() - tree.poses[size_t(pose)].mins.z();
    if (const std::optional<StandingPlace> place = nearestStandingPlace(tree, *mesh, cursor.x(), cursor.y(),
                                                                         working, tree.bounds.mins.z(), tree.bounds.maxs.z()))
        return {place->point, true};
    cursor.z() = working;
    return {cursor, false};
}

QString noFloorReason(bool goal, const QString& pose) {
    return QString("no floor under the %1 where the %2 can stand (under the cursor: a wall, a box too narrow for it, or "
                   "the void)")
        .arg(goal ? "goal" : "start", pose);
}

} // namespace shallot
