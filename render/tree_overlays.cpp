#include "tree_overlays.h"

#include "portal/leaf_visibility.h"
#include "portal/region_boundary.h"

#include <bit>
#include <map>
#include <optional>
#include <unordered_map>

namespace shallot::render {

namespace {

// Alpha of translucent cell faces.
constexpr int kCellAlpha = 64;
constexpr double kNormalArrowLength = 24.0;
constexpr double kContactCrossSize = 4.0;
// Threads the overlays' boundary searches use (they run on a background thread already;
// the machine has 2 cores).
constexpr int kBoundaryThreads = 2;

// Whether what belongs to `leaf` is drawn under `onlyLeaves` (null: every leaf's is; a
// leaf number past its end, or -1 cast, is not marked).
bool marked(const LeafMask* onlyLeaves, size_t leaf) {
    return !onlyLeaves || (leaf < onlyLeaves->size() && (*onlyLeaves)[leaf]);
}

// The leaf whose visibility decides whether something on the face between leaves a and b
// (b: -1 for none) is drawn: one of them empty for the sight pose, whose cell the eye
// must see into to see the face; -1 (always drawn) when neither is.
int32_t seenOwner(const BspTree& tree, int sight, int32_t a, int32_t b) {
    auto clear = [&](int32_t leaf) { return leaf >= 0 && sight >= 0 && !((tree.leafSolid[size_t(leaf)] >> sight) & 1u); };
    return clear(a) ? a : clear(b) ? b : -1;
}

// Leaves coloured for one overlay: region[leaf] indexes colours, -1 for a leaf not drawn.
struct Labelling {
    std::vector<int32_t> region;
    std::vector<QColor> colours;
    int32_t of(int32_t leaf) const { return leaf >= 0 && size_t(leaf) < region.size() ? region[size_t(leaf)] : -1; }
};

// The surfaces between the regions of each labelling (see regionBoundary), each side in
// its region's colour, as the labellings drawn one over another (`stack` from the bottom)
// would show them, but in one layer: a piece on the boundary of several labellings is
// drawn once with their colours composed. (The cell and reachability boundaries coincide
// on most walls in view; as two translucent layers they cost the renderer two blended
// passes over most of the picture.)
void addRegionBoundaries(MeshBatch& batch, const BspTree& tree, const LeafCellList& cells,
                         const std::vector<const Labelling*>& stack, const LeafMask* onlyLeaves) {
    // A leaf's combined region is the tuple of its regions, numbered as first met.
    const size_t leafCount = cells.size();
    std::vector<int32_t> combined(leafCount, -1);
    std::map<std::vector<int32_t>, int32_t> tuples;
    std::vector<int32_t> tuple(stack.size());
    for (size_t leaf = 0; leaf < leafCount; ++leaf) {
        bool any = false;
        for (size_t k = 0; k < stack.size(); ++k) {
            tuple[k] = stack[k]->of(int32_t(leaf));
            any |= tuple[k] >= 0;
        }
        if (any) combined[leaf] = tuples.try_emplace(tuple, int32_t(tuples.size())).first->second;
    }
    const int sight = sightPose(tree);
    const std::vector<BoundaryPiece> pieces = regionBoundary(tree, cells, combined, kBoundaryThreads, onlyLeaves);
    size_t triangleVertices = 0;
    for (const BoundaryPiece& p : pieces) triangleVertices += 3 * (std::max<size_t>(p.polygon.vertices.size(), 2) - 2);
    batch.vertices.reserve(batch.vertices.size() + triangleVertices);
    for (const BoundaryPiece& p : pieces) {
        std::optional<QColor> colour;
        for (const Labelling* l : stack) {
            const int32_t own = l->of(p.leaf);
            if (own < 0 || own == l->of(p.neighbour)) continue; // not on this labelling's boundary
            const QColor& c = l->colours[size_t(own)];
            colour = colour ? over(c, *colour) : c;
        }
        if (!colour) continue;
        batch.setLeaf(seenOwner(tree, sight, p.leaf, p.neighbour));
        batch.addPolygon(p.polygon.vertices, p.normal, *colour);
    }
}

Labelling cellLabelling(const OverlaySource& source, const CellOverlayOptions& o) {
    const BspTree& tree = source.tree;
    const LeafCellList& cells = source.cells;
    const int poseCount = int(tree.poses.size());
    // Leaves of one colour form a region; only the surfaces between regions are drawn.
    Labelling out;
    out.region.assign(std::min(cells.size(), tree.leafCount()), -1);
    std::unordered_map<QRgb, int32_t> regionOfColour;
    for (size_t leaf = 0; leaf < out.region.size(); ++leaf) {
        const ConvexPolyhedron& cell = cells[leaf];
        if (cell.empty()) continue;
        const uint64_t bits = tree.leafSolid[leaf];
        const bool highlighted = int(leaf) == o.highlightLeaf;
        if (!highlighted && (o.onlyHighlight || !passes(bits, poseCount, o))) continue;
        if (!highlighted && !o.includeOutside && touchesWorldBox(source.cellBounds[leaf], tree.bounds)) continue;
        QColor colour = o.roundShape                               ? roundCellColour(roundCellKind(bits))
                        : o.colouring == CellColouring::ByBitset ? bitsetColour(bits)
                        : ((bits >> o.pose) & 1u)                ? kSolidCellColour
                                                                 : kEmptyCellColour;
        if (o.greyed && leaf < o.greyed->size() && (*o.greyed)[leaf]) colour = kGreyedCellColour;
        colour.setAlpha(highlighted ? 160 : kCellAlpha);
        if (highlighted) {
            // A region of its own, so every face of it shows.
            out.region[leaf] = int32_t(out.colours.size());
            out.colours.push_back(colour.lighter(140));
            continue;
        }
        auto [it, added] = regionOfColour.try_emplace(colour.rgba(), int32_t(out.colours.size()));
        if (added) out.colours.push_back(colour);
        out.region[leaf] = it->second;
    }
    return out;
}

// The leaves flagged, as one region of `colour` (reached leaves, visible leaves).
Labelling flaggedLabelling(const LeafCellList& cells, const std::vector<bool>& flagged, QColor colour) {
    Labelling out;
    out.region.assign(std::min(cells.size(), flagged.size()), -1);
    for (size_t leaf = 0; leaf < out.region.size(); ++leaf)
        if (flagged[leaf]) out.region[leaf] = 0;
    colour.setAlpha(kCellAlpha);
    out.colours = {colour};
    return out;
}

Labelling reachLabelling(const LeafCellList& cells, const std::vector<bool>& reached) {
    return flaggedLabelling(cells, reached, kReachedColour);
}

// The leak path as thin boxes along each segment, so it shows in a triangle batch.
void addLeakPath(MeshBatch& batch, const std::vector<Vec3>& leakPath) {
    batch.setLeaf(-1); // seen from everywhere it is in view
    const QColor red = kProblemColour;
    for (size_t i = 0; i + 1 < leakPath.size(); ++i) {
        const Vec3 a = leakPath[i], b = leakPath[i + 1];
        const Vec3 d = (b - a).normalized();
        Vec3 side = d.cross(Vec3::UnitZ());
        if (side.norm() < 1e-6) side = d.cross(Vec3::UnitX());
        side = side.normalized() * kLeakPathRadius;
        const Vec3 up = d.cross(side).normalized() * kLeakPathRadius;
        for (const Vec3& offset : {side, up}) {
            Polygon quad{{a - offset, b - offset, b + offset, a + offset}};
            batch.addPolygon(quad.vertices, d.cross(offset).normalized(), red);
        }
    }
}

} // namespace

RoundCellKind roundCellKind(uint64_t bits) {
    if (!(bits & 1u)) return RoundCellKind::CertainEmpty;
    return (bits & 2u) ? RoundCellKind::CertainSolid : RoundCellKind::DecidedExactly;
}

QColor roundCellColour(RoundCellKind kind) {
    switch (kind) {
    case RoundCellKind::CertainEmpty: return kEmptyCellColour;
    case RoundCellKind::CertainSolid: return kSolidCellColour;
    case RoundCellKind::DecidedExactly: return kDecidedExactlyColour;
    }
    return kDecidedExactlyColour;
}

bool roundCellPasses(RoundCellKind kind, CellFilter filter) {
    switch (filter) {
    case CellFilter::Empty: return kind != RoundCellKind::CertainSolid;
    case CellFilter::Solid: return kind != RoundCellKind::CertainEmpty;
    case CellFilter::DiffersBetweenPoses: return kind == RoundCellKind::DecidedExactly;
    case CellFilter::All: return true;
    }
    return true;
}

bool passes(uint64_t bits, int poseCount, const CellOverlayOptions& o) {
    if (o.roundShape) return roundCellPasses(roundCellKind(bits), o.filter);
    const bool solid = (bits >> o.pose) & 1u;
    const uint64_t all = poseCount >= 64 ? ~uint64_t(0) : ((uint64_t(1) << poseCount) - 1);
    switch (o.filter) {
    case CellFilter::Empty: return !solid;
    case CellFilter::Solid: return solid;
    case CellFilter::DiffersBetweenPoses: return (bits & all) != 0 && (bits & all) != all;
    case CellFilter::All: return true;
    }
    return true;
}

QColor over(const QColor& top, const QColor& under) {
    const double at = top.alphaF(), au = under.alphaF();
    const double a = at + au * (1.0 - at);
    if (a <= 0.0) return QColor(0, 0, 0, 0);
    auto channel = [&](double t, double u) { return (t * at + u * au * (1.0 - at)) / a; };
    return QColor::fromRgbF(float(channel(top.redF(), under.redF())), float(channel(top.greenF(), under.greenF())),
                            float(channel(top.blueF(), under.blueF())), float(a));
}

std::vector<Aabb> leafCellBounds(const LeafCellList& cells) {
    std::vector<Aabb> out(cells.size());
    for (size_t leaf = 0; leaf < cells.size(); ++leaf) out[leaf] = cells[leaf].bounds();
    return out;
}

bool touchesWorldBox(const Aabb& cell, const Aabb& worldBox) {
    return (cell.mins.array() <= worldBox.mins.array()).any() || (cell.maxs.array() >= worldBox.maxs.array()).any();
}

QColor bitsetColour(uint64_t bits) {
    if (bits == 0) return kEmptyCellColour;
    // Spread the bit patterns around the hue circle; more solid poses = darker.
    const uint64_t h = bits * 0x9E3779B97F4A7C15ull;
    return QColor::fromHsv(int((h >> 40) % 360), 170, 255 - 20 * std::min(8, std::popcount(bits)));
}

MeshBatch cellOverlay(const OverlaySource& source, const CellOverlayOptions& options, const LeafMask* onlyLeaves) {
    MeshBatch batch;
    const Labelling cellsLabelled = cellLabelling(source, options);
    addRegionBoundaries(batch, source.tree, source.cells, {&cellsLabelled}, onlyLeaves);
    return batch;
}

MeshBatch portalOverlay(const OverlaySource& source, int pose, bool includeOutside, const LeafMask* onlyLeaves) {
    const BspTree& tree = source.tree;
    const LeafCellList& cells = source.cells;
    MeshBatch batch;
    batch.lit = false;
    batch.primitive = Primitive::Lines;
    const QColor colour = kPortalColour;
    std::vector<bool> outside(cells.size(), false);
    if (!includeOutside)
        for (size_t leaf = 0; leaf < cells.size(); ++leaf)
            outside[leaf] = !cells[leaf].empty() && touchesWorldBox(source.cellBounds[leaf], tree.bounds);
    auto isOutside = [&](int32_t leaf) { return size_t(leaf) < outside.size() && outside[size_t(leaf)]; };
    auto shown = [&](const Portal& p) {
        return ((p.poses >> pose) & 1u) && !isOutside(p.front) && !isOutside(p.back) &&
               (marked(onlyLeaves, size_t(p.front)) || marked(onlyLeaves, size_t(p.back)));
    };
    // Reserved whole: growing a vector of millions of vertices step by step costs more in
    // copies and page faults than filling it.
    size_t lineVertices = 0;
    for (const Portal& p : tree.portals)
        if (shown(p)) lineVertices += 2 * size_t(p.vertexCount);
    batch.vertices.reserve(lineVertices);
    const int sight = sightPose(tree);
    for (const Portal& p : tree.portals) {
        if (!shown(p)) continue;
        batch.setLeaf(seenOwner(tree, sight, p.front, p.back));
        batch.addOutline(tree.portals.vertices(p), colour);
    }
    return batch;
}

MeshBatch unionWireOverlay(const BspTree& tree, int pose, const LeafMask* onlyLeaves) {
    MeshBatch batch;
    batch.primitive = Primitive::Lines;
    batch.lit = false;
    const QColor colour = kExpandedWorldColour;
    const int sight = sightPose(tree);
    // A leaf keeps the boundary polygons that face into it (its empty side).
    for (size_t leaf = 0; leaf < tree.leaves.size(); ++leaf) {
        if (!marked(onlyLeaves, leaf)) continue;
        const LeafInfo& info = tree.leaves[leaf];
        batch.setLeaf(seenOwner(tree, sight, int32_t(leaf), -1));
        for (uint32_t k = info.firstPolygon; k < info.firstPolygon + info.polygonCount && k < tree.polygons.size(); ++k)
            if (tree.polygons[k].pose == pose) batch.addOutline(tree.polygons.vertices(k), colour);
    }
    return batch;
}

MeshBatch reachOverlay(const OverlaySource& source, const std::vector<bool>& reached, const std::vector<Vec3>& leakPath,
                       const LeafMask* onlyLeaves) {
    MeshBatch batch;
    const Labelling reach = reachLabelling(source.cells, reached);
    addRegionBoundaries(batch, source.tree, source.cells, {&reach}, onlyLeaves);
    addLeakPath(batch, leakPath);
    return batch;
}

MeshBatch visibleOverlay(const OverlaySource& source, const std::vector<bool>& visible) {
    const Labelling l = flaggedLabelling(source.cells, visible, kVisibleColour);
    MeshBatch batch;
    addRegionBoundaries(batch, source.tree, source.cells, {&l}, nullptr);
    return batch;
}

MeshBatch viewWeightOverlay(const OverlaySource& source, const std::vector<uint32_t>& viewWeight, uint32_t limit) {
    const int sight = sightPose(source.tree);
    Labelling l;
    l.region.assign(std::min(source.cells.size(), viewWeight.size()), -1);
    for (int step = 0; step <= kViewWeightSteps; ++step) {
        QColor c = viewWeightColour(step);
        c.setAlpha(kCellAlpha);
        l.colours.push_back(c);
    }
    for (size_t leaf = 0; leaf < l.region.size(); ++leaf)
        if (sight >= 0 && !((source.tree.leafSolid[leaf] >> sight) & 1u) && viewWeight[leaf] > 0)
            l.region[leaf] = viewWeightStep(viewWeight[leaf], limit);
    MeshBatch batch;
    addRegionBoundaries(batch, source.tree, source.cells, {&l}, nullptr);
    return batch;
}

MeshBatch cellAndReachOverlay(const OverlaySource& source, const CellOverlayOptions& options,
                              const std::vector<bool>& reached, const std::vector<Vec3>& leakPath,
                              const LeafMask* onlyLeaves) {
    MeshBatch batch;
    const Labelling cellsLabelled = cellLabelling(source, options), reach = reachLabelling(source.cells, reached);
    addRegionBoundaries(batch, source.tree, source.cells, {&cellsLabelled, &reach}, onlyLeaves);
    addLeakPath(batch, leakPath);
    return batch;
}

MeshBatch rayOverlay(const std::vector<RayDrawing>& rays, const Pose& pose) {
    MeshBatch batch;
    batch.primitive = Primitive::Lines;
    batch.lit = false;
    const QColor free = kRayClearColour, blocked = kRayBlockedColour, normal = kRayContactColour, box = kPoseBoxColour;
    for (const RayDrawing& r : rays) {
        if (!r.walkPath.empty()) {
            for (size_t i = 0; i + 1 < r.walkPath.size(); ++i) batch.addLine(r.walkPath[i], r.walkPath[i + 1], free);
            batch.addBoxEdges(r.walkPath.back() + pose.mins, r.walkPath.back() + pose.maxs, box);
        } else if (r.startSolid) {
            batch.addLine(r.from, r.to, blocked);
        } else if (r.hit) {
            batch.addLine(r.from, r.point, free);
            batch.addLine(r.point, r.to, blocked);
            for (int a = 0; a < 3; ++a)
                batch.addLine(r.point - Vec3::Unit(a) * kContactCrossSize, r.point + Vec3::Unit(a) * kContactCrossSize, normal);
            batch.addLine(r.point, r.point + r.normal * kNormalArrowLength, normal);
            batch.addBoxEdges(r.point + pose.mins, r.point + pose.maxs, blocked);
        } else {
            batch.addLine(r.from, r.to, free);
        }
        batch.addBoxEdges(r.from + pose.mins, r.from + pose.maxs, box);
        batch.addBoxEdges(r.to + pose.mins, r.to + pose.maxs, QColor(box.red(), box.green(), box.blue(), 120));
    }
    return batch;
}

} // namespace shallot::render
