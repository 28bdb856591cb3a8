#include "nav/nav_mesh_update.h"

#include "compile/compile_state.h"
#include "edit/brush_operations.h"
#include "incremental/brush_diff.h"

namespace shallot {

namespace {

NavMesh buildRecorded(const BspTree& tree, int pose, const NavSettings& settings, NavProbeReuse& reuse,
                      NavBuildTimes* times) {
    auto memo = std::make_shared<NavProbeMemo>();
    memo->pose = pose;
    memo->settings = settings;
    if (size_t(pose) < tree.poses.size()) {
        memo->poseMins = tree.poses[size_t(pose)].mins;
        memo->poseMaxs = tree.poses[size_t(pose)].maxs;
    }
    memo->treeBounds = tree.bounds;
    reuse.record = memo.get();
    NavMesh mesh = buildNavMesh(tree, pose, settings, times, &reuse);
    mesh.probeMemo = std::move(memo);
    return mesh;
}

} // namespace

bool changedBrushBounds(const World& before, const World& after, std::vector<Aabb>& boxes, size_t* changed) {
    std::vector<BrushKey> a, b;
    a.reserve(before.brushes.size());
    b.reserve(after.brushes.size());
    for (const Brush& brush : before.brushes) a.push_back(BrushKey::of(brush));
    for (const Brush& brush : after.brushes) b.push_back(BrushKey::of(brush));
    const BrushDiff diff = diffBrushes(a, b);
    if (changed) *changed = diff.changed;
    bool known = true;
    auto add = [&](const Brush& brush) {
        const Aabb box = bounds(brush);
        if (box.empty()) known = false;
        else boxes.push_back(box);
    };
    for (size_t i = 0; i < diff.newOfOld.size(); ++i)
        if (diff.newOfOld[i] < 0) add(before.brushes[i]);
    for (size_t i = 0; i < diff.oldOfNew.size(); ++i)
        if (diff.oldOfNew[i] < 0) add(after.brushes[i]);
    return known;
}

std::optional<std::vector<Aabb>> navWorldEdit(const World& before, const World& after, size_t maxBrushes) {
    if (before.poses.size() != after.poses.size() || !(before.bounds.mins == after.bounds.mins) ||
        !(before.bounds.maxs == after.bounds.maxs))
        return std::nullopt;
    for (size_t i = 0; i < before.poses.size(); ++i) {
        const Pose &a = before.poses[i], &b = after.poses[i];
        if (a.name != b.name || a.mins != b.mins || a.maxs != b.maxs || a.blockingSet() != b.blockingSet()) return std::nullopt;
    }
    std::vector<Aabb> boxes;
    size_t changed = 0;
    if (!changedBrushBounds(before, after, boxes, &changed) || changed > maxBrushes) return std::nullopt;
    return boxes;
}

NavMesh buildNavMeshForUpdates(const BspTree& tree, int pose, const NavSettings& settings, NavBuildTimes* times) {
    NavProbeReuse reuse;
    return buildRecorded(tree, pose, settings, reuse, times);
}

NavMesh updateNavMesh(const NavMesh& previous, const BspTree& tree, int pose, const NavSettings& settings,
                      const std::vector<Aabb>& changedBrushes, NavUpdateStats* stats) {
    NavUpdateStats local;
    NavUpdateStats& st = stats ? *stats : local;
    st = {};
    NavProbeReuse reuse;
    const NavProbeMemo* memo = previous.probeMemo.get();
    const bool samePose = size_t(pose) < tree.poses.size() && memo && memo->poseMins == tree.poses[size_t(pose)].mins &&
                          memo->poseMaxs == tree.poses[size_t(pose)].maxs;
    if (samePose && memo->pose == pose && memo->settings == settings && memo->treeBounds.mins == tree.bounds.mins &&
        memo->treeBounds.maxs == tree.bounds.maxs) {
        reuse.previous = memo;
        // A brush's configuration-space obstacle for a box [mins, maxs] is the brush grown
        // by -maxs below and -mins above.
        const Vec3 margin = Vec3::Constant(kNavUpdateMargin);
        for (const Aabb& box : changedBrushes) {
            Aabb grown;
            grown.mins = box.mins - memo->poseMaxs - margin;
            grown.maxs = box.maxs - memo->poseMins + margin;
            reuse.region.push_back(grown);
        }
    } else {
        st.rebuilt = true;
    }
    NavMesh mesh = buildRecorded(tree, pose, settings, reuse, &st.times);
    st.reused = reuse.reused;
    st.traced = reuse.traced;
    st.reusedJumps = reuse.reusedJumps;
    st.tracedJumps = reuse.tracedJumps;
    st.fragile = reuse.fragile;
    st.fragileJumps = reuse.fragileJumps;
    return mesh;
}

} // namespace shallot
