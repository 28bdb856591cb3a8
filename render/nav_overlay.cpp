#include "nav_overlay.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace shallot::render {

namespace {
// Alpha of the walkable surfaces.
constexpr int kWalkableAlpha = 110;
// Arrow heads: this long, at this share of the arrow's length at most.
constexpr double kArrowHead = 6.0;
} // namespace

QColor componentColour(int32_t component) {
    const uint64_t h = uint64_t(component + 1) * 0x9E3779B97F4A7C15ull;
    return QColor::fromHsv(int((h >> 40) % 360), 150, 235);
}

MeshBatch walkableSurfaces(const NavMesh& mesh, double feet) {
    MeshBatch batch;
    batch.lit = false;
    const Vec3 down = Vec3::UnitZ() * (feet + kFeetLift);
    std::vector<Vec3> onFloor;
    for (const NavPolygon& p : mesh.polygons) {
        QColor c = componentColour(p.component);
        c.setAlpha(kWalkableAlpha);
        onFloor.clear();
        for (const Vec3& v : p.vertices) onFloor.push_back(v + down);
        batch.addPolygon(onFloor, p.normal, c);
    }
    return batch;
}

namespace {

void addArrow(MeshBatch& batch, const Vec3& start, const Vec3& end, const QColor& c) {
    batch.addLine(start, end, c);
    const Vec3 d = end - start;
    if (d.norm() < 1e-9) return;
    const Vec3 back = -d.normalized() * std::min(kArrowHead, 0.5 * d.norm());
    Vec3 side = back.cross(Vec3::UnitZ());
    if (side.norm() < 1e-9) side = Vec3::UnitX() * back.norm();
    side = side.normalized() * 0.5 * back.norm();
    batch.addLine(end, end + back + side, c);
    batch.addLine(end, end + back - side, c);
}

// The pieces of a path's step from `from` through `via` (a swim round corners), lowered by
// `down`; the last point reached, from which the last piece goes to the end.
Vec3 addViaPieces(MeshBatch& batch, const Vec3& from, const std::vector<Vec3>& via, const Vec3& down, const QColor& c) {
    Vec3 last = from;
    for (const Vec3& v : via) {
        batch.addLine(last + down, v + down, c);
        last = v;
    }
    return last;
}

// Chooses the links drawn as arrows: a link whose start and end both lie within
// kLinkArrowSpacing of those of an arrow of its kind already drawn is shown by that arrow.
// A ledge's probes (kNavProbeSpacing apart) read as a few arrows, not a fringe of them, and
// a pool's swims as a few crossings, not one per pair of floors; the views draw a fraction
// of the lines.
class ArrowThinning {
public:
    bool keep(int kind, const Vec3& start, const Vec3& end) {
        const std::array<int64_t, 3> cell = cellOf(start);
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    const auto it = kept_.find({kind, cell[0] + dx, cell[1] + dy, cell[2] + dz});
                    if (it == kept_.end()) continue;
                    for (const auto& [s, e] : it->second)
                        if (near(s, start) && near(e, end)) return false;
                }
        kept_[{kind, cell[0], cell[1], cell[2]}].push_back({start, end});
        return true;
    }

private:
    static bool near(const Vec3& a, const Vec3& b) { return (a - b).squaredNorm() < kLinkArrowSpacing * kLinkArrowSpacing; }
    static std::array<int64_t, 3> cellOf(const Vec3& p) {
        std::array<int64_t, 3> c{};
        for (int i = 0; i < 3; ++i) c[size_t(i)] = int64_t(std::floor(p[i] / kLinkArrowSpacing));
        return c;
    }
    // Kept arrows by kind and the grid cell (kLinkArrowSpacing wide) of their start.
    std::map<std::tuple<int, int64_t, int64_t, int64_t>, std::vector<std::pair<Vec3, Vec3>>> kept_;
};

} // namespace

MeshBatch walkableLinks(const NavMesh& mesh, double feet) {
    const Vec3 down = Vec3::UnitZ() * (feet + kFeetLift);
    MeshBatch batch;
    batch.primitive = Primitive::Lines;
    batch.lit = false;
    ArrowThinning thinning;
    for (const NavLink& l : mesh.links) {
        if (l.kind == NavLinkKind::Walk || !thinning.keep(int(l.kind), l.start, l.end)) continue;
        const QColor& c = l.kind == NavLinkKind::StepUp     ? kStepUpColour
                          : l.kind == NavLinkKind::StepDown ? kStepDownColour
                          : l.kind == NavLinkKind::Jump     ? kJumpColour
                                                            : kDropColour;
        addArrow(batch, l.start + down, l.end + down, c);
    }
    return batch;
}

const QColor& travelColour(TravelKind kind) {
    switch (kind) {
    case TravelKind::Walk: break;
    case TravelKind::Step: return kStepUpColour;
    case TravelKind::Drop: return kDropColour;
    case TravelKind::Jump: return kJumpColour;
    case TravelKind::Door: return kDoorTravelColour;
    case TravelKind::Plat: return kPlatTravelColour;
    case TravelKind::Train: return kTrainTravelColour;
    case TravelKind::Teleport: return kTeleportTravelColour;
    case TravelKind::Push: return kPushTravelColour;
    case TravelKind::Swim: return kSwimTravelColour;
    case TravelKind::WaterJump: return kWaterJumpTravelColour;
    case TravelKind::Ladder: return kLadderTravelColour;
    }
    return kNavPathColour;
}

MeshBatch walkableTravel(const TravelGraph& graph, const Pose& pose) {
    MeshBatch batch;
    batch.primitive = Primitive::Lines;
    batch.lit = false;
    const Vec3 down = Vec3::UnitZ() * (pose.mins.z() + kFeetLift);
    // A gate's boxes hold the reference point's places where the pose's box meets the closed
    // door (configuration space): grown back by the pose's box they are the door's.
    for (const DoorGate& gate : graph.gates)
        for (const Aabb& box : gate.boxes) batch.addBoxEdges(box.mins + pose.maxs, box.maxs + pose.mins, kDoorTravelColour);
    ArrowThinning thinning;
    // The routes' pieces, each once (either way), drawn after the arrows.
    std::set<std::pair<std::array<double, 3>, std::array<double, 3>>> pieceSet;
    std::vector<std::tuple<Vec3, Vec3, TravelKind>> pieces;
    auto keyOf = [](const Vec3& p) { return std::array<double, 3>{p.x(), p.y(), p.z()}; };
    for (const TravelLink& l : graph.links) {
        const QColor& c = travelColour(l.kind);
        if (l.via.empty()) {
            if (thinning.keep(int(l.kind), l.start, l.end)) addArrow(batch, l.start + down, l.end + down, c);
            continue;
        }
        if (thinning.keep(int(l.kind), l.start, l.via.front())) addArrow(batch, l.start + down, l.via.front() + down, c);
        for (size_t i = 0; i + 1 < l.via.size(); ++i)
            if (pieceSet.insert(std::minmax(keyOf(l.via[i]), keyOf(l.via[i + 1]))).second) pieces.push_back({l.via[i], l.via[i + 1], l.kind});
        if (thinning.keep(int(l.kind), l.via.back(), l.end)) addArrow(batch, l.via.back() + down, l.end + down, c);
    }
    for (const auto& [a, b, kind] : pieces) batch.addLine(a + down, b + down, travelColour(kind));
    return batch;
}

void addPath(MeshBatch& lines, const TravelPath& path, double feet) {
    const Vec3 down = Vec3::UnitZ() * (feet + kFeetLift);
    for (size_t i = 0; i + 1 < path.points.size(); ++i)
        lines.addLine(path.points[i] + down, path.points[i + 1] + down, kNavPathColour);
    // Each typed part over the walk, in its colour (a teleport's from its entry to its
    // destination, straight).
    for (const TravelStep& step : path.travel)
        if (step.kind != TravelKind::Walk) {
            const Vec3 last = addViaPieces(lines, step.from, step.via, down, travelColour(step.kind));
            lines.addLine(last + down, step.to + down, travelColour(step.kind));
        }
}

void addPathRay(MeshBatch& lines, const Vec3& from, const Vec3& to, const TravelPath* path, double feet) {
    // Crosses as wide as a player's box, at the ends as placed (the path starts where each
    // end lands on the floor).
    constexpr double kCross = 16.0;
    for (const Vec3& p : {from, to})
        for (int axis = 0; axis < 3; ++axis)
            lines.addLine(p - kCross * Vec3::Unit(axis), p + kCross * Vec3::Unit(axis), kNavPathColour);
    if (path && path->found) addPath(lines, *path, feet);
    else lines.addLine(from, to, path ? kProblemColour : kNavPathColour);
}

} // namespace shallot::render
