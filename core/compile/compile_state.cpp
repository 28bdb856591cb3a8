#include "compile/compile_state.h"

#include "compile/brush_expansion.h"

namespace shallot {

namespace {

size_t hashCombine(size_t h, size_t v) { return h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2)); }

} // namespace

BrushKey BrushKey::of(const Brush& brush) {
    BrushKey k;
    k.contents = brush.contents;
    k.excludedPoses = brush.excludedPoses;
    k.hash = size_t(brush.contents);
    const std::hash<double> hashDouble;
    for (const BrushSide& side : brush.sides) {
        k.planes.push_back(side.plane);
        for (int i = 0; i < 3; ++i) k.hash = hashCombine(k.hash, hashDouble(side.plane.normal[i]));
        k.hash = hashCombine(k.hash, hashDouble(side.plane.dist));
    }
    for (const std::string& name : brush.excludedPoses) k.hash = hashCombine(k.hash, std::hash<std::string>()(name));
    return k;
}

bool BrushKey::operator==(const BrushKey& o) const {
    if (hash != o.hash || contents != o.contents || excludedPoses != o.excludedPoses ||
        planes.size() != o.planes.size())
        return false;
    for (size_t i = 0; i < planes.size(); ++i)
        if (planes[i].normal != o.planes[i].normal || planes[i].dist != o.planes[i].dist) return false;
    return true;
}

double expansionExtent(const Aabb& b) {
    return std::max(b.mins.cwiseAbs().maxCoeff(), b.maxs.cwiseAbs().maxCoeff());
}

std::vector<std::optional<ConvexPolyhedron>> expandForPoses(const BrushGeometry& geometry, const Brush& brush,
                                                            const std::vector<Pose>& poses, double extent) {
    std::vector<std::optional<ConvexPolyhedron>> out(poses.size());
    for (size_t p = 0; p < poses.size(); ++p) {
        if (!blocks(brush, poses[p])) continue;
        ConvexPolyhedron hull = expandBrush(geometry, poses[p], extent);
        if (!hull.empty()) out[p] = std::move(hull);
    }
    return out;
}

void appendBuildPolygons(const PoseState& pose, uint8_t poseTag, std::vector<BuildPolygon>& out) {
    for (const std::vector<UnionFace>& faces : pose.faces)
        for (const UnionFace& f : faces) out.push_back(makeBuildPolygon(f.polygon, f.plane, poseTag, f.brush));
}

std::string posesProblem(const World& world) {
    if (world.poses.empty() || world.poses.size() > size_t(kMaxPoses))
        return "a world needs between 1 and " + std::to_string(kMaxPoses) + " poses";
    for (const Pose& p : world.poses)
        if (!p.isValid()) return "pose '" + p.name + "' is invalid (empty name, NaN, or mins above maxs)";
    return {};
}

std::vector<size_t> unionFaceCounts(const CompileState& state) {
    std::vector<size_t> counts;
    for (const PoseState& pose : state.perPose) {
        size_t faces = 0;
        for (const std::vector<UnionFace>& f : pose.faces) faces += f.size();
        counts.push_back(faces);
    }
    return counts;
}

void fillTreeStats(CompileResult& result) {
    CompileStats& stats = result.stats;
    stats.nodes = result.onion.nodes.size();
    stats.leaves = result.onion.leafCount();
    stats.depth = result.onion.depth();
    stats.bytes = result.onion.bytes();
    stats.portals = result.onion.portals.size();
    stats.degenerateLeaves = 0;
    for (const LeafInfo& l : result.onion.leaves) stats.degenerateLeaves += l.degenerate;
    stats.mapTreeNodesPerPose.clear();
    for (const BspTree& t : result.mapTrees) stats.mapTreeNodesPerPose.push_back(t.nodes.size());
}

} // namespace shallot
