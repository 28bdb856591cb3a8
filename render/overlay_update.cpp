#include "overlay_update.h"

#include <algorithm>
#include <array>
#include <unordered_set>

namespace shallot::render {

namespace {

// What an overlay draws of a leaf lies on its cell, up to rounding to float; a unit of
// margin around each box covers that.
constexpr double kRegionMargin = 1.0;

// The chunk cells a box reaches, as grid coordinates lo..hi (inclusive) per axis.
struct CellRange {
    std::array<int64_t, 3> lo, hi;

    static CellRange of(const Aabb& box, double margin) {
        CellRange r;
        for (int a = 0; a < 3; ++a) {
            r.lo[size_t(a)] = chunkCoordinate(box.mins[a] - margin);
            r.hi[size_t(a)] = chunkCoordinate(box.maxs[a] + margin);
        }
        return r;
    }
    // As a double: the void's leaves reach up to 2^17 cells along an axis.
    double count() const {
        double n = 1;
        for (size_t a = 0; a < 3; ++a) n *= double(hi[a] - lo[a] + 1);
        return n;
    }
    bool contains(const std::array<int64_t, 3>& c) const {
        for (size_t a = 0; a < 3; ++a)
            if (c[a] < lo[a] || c[a] > hi[a]) return false;
        return true;
    }
    bool overlaps(const CellRange& o) const {
        for (size_t a = 0; a < 3; ++a)
            if (hi[a] < o.lo[a] || o.hi[a] < lo[a]) return false;
        return true;
    }
    template <class F> void forEach(F&& f) const {
        for (int64_t x = lo[0]; x <= hi[0]; ++x)
            for (int64_t y = lo[1]; y <= hi[1]; ++y)
                for (int64_t z = lo[2]; z <= hi[2]; ++z) f(std::array<int64_t, 3>{x, y, z});
    }
};

bool valueAt(const std::vector<bool>& v, size_t i) { return i < v.size() && v[i]; }

uint64_t keyOf(const std::array<int64_t, 3>& c) { return chunkCellKey(c[0], c[1], c[2]); }

} // namespace

std::vector<Aabb> leafCellBounds(const LeafCellList& cells, const std::vector<Aabb>& before,
                                 const std::vector<int32_t>& leafOfBefore) {
    std::vector<Aabb> out(cells.size());
    std::vector<bool> known(cells.size(), false);
    for (size_t old = 0; old < leafOfBefore.size() && old < before.size(); ++old) {
        const int32_t leaf = leafOfBefore[old];
        if (leaf < 0 || size_t(leaf) >= out.size()) continue;
        out[size_t(leaf)] = before[old];
        known[size_t(leaf)] = true;
    }
    for (size_t leaf = 0; leaf < cells.size(); ++leaf)
        if (!known[leaf]) out[leaf] = cells[leaf].bounds();
    return out;
}

Aabb drawnExtent(const BspTree& tree, const std::vector<Aabb>& cellBounds, bool voidDrawn) {
    if (voidDrawn) return tree.bounds;
    // A leaf's polygons lie on its cell: only those of the leaves whose cells are not added
    // are added vertex by vertex (every polygon's vertices took 2 ms on librequake_e3m4).
    Aabb extent;
    for (size_t leaf = 0; leaf < tree.leaves.size(); ++leaf) {
        const Aabb cell = leaf < cellBounds.size() ? cellBounds[leaf] : Aabb{};
        if (!cell.empty() && !touchesWorldBox(cell, tree.bounds)) {
            extent.add(cell);
            continue;
        }
        const LeafInfo& info = tree.leaves[leaf];
        for (uint32_t p = info.firstPolygon; p < info.firstPolygon + info.polygonCount; ++p)
            for (const Vec3& v : tree.polygons.vertices(p)) extent.add(v);
    }
    return extent;
}

std::optional<OverlayRegion> changedRegion(const OverlayLeafInputs& before, const OverlayLeafInputs& after,
                                           const std::vector<int32_t>& leafOfBefore, size_t maxCells) {
    const size_t leafCount = after.cellBounds.size();
    // The boxes of what changed: removed leaves (their old cells), new or changed leaves,
    // as far as either tree's overlays draw.
    Aabb extent = before.extent;
    extent.add(after.extent);
    std::vector<Aabb> changed;
    auto addCell = [&](const Aabb& cell) {
        Aabb drawn{cell.mins.cwiseMax(extent.mins), cell.maxs.cwiseMin(extent.maxs)};
        if (!drawn.empty()) changed.push_back(drawn);
    };
    std::vector<int32_t> oldOf(leafCount, -1);
    for (size_t old = 0; old < before.cellBounds.size(); ++old) {
        const int32_t leaf = old < leafOfBefore.size() ? leafOfBefore[old] : -1;
        if (leaf >= 0 && size_t(leaf) < leafCount) oldOf[size_t(leaf)] = int32_t(old);
        else addCell(before.cellBounds[old]);
    }
    for (size_t leaf = 0; leaf < leafCount; ++leaf) {
        const int32_t o = oldOf[leaf];
        const size_t old = size_t(o);
        if (o < 0 || old >= before.leafSolid.size() || leaf >= after.leafSolid.size() ||
            before.leafSolid[old] != after.leafSolid[leaf] || valueAt(before.reached, old) != valueAt(after.reached, leaf) ||
            valueAt(before.greyed, old) != valueAt(after.greyed, leaf))
            addCell(after.cellBounds[leaf]);
    }
    // The leak path's boxes reach past the world box by their width: not clipped.
    if (before.leakPath != after.leakPath)
        for (const std::vector<Vec3>* path : {&before.leakPath, &after.leakPath})
            for (size_t i = 0; i + 1 < path->size(); ++i) {
                Aabb segment;
                segment.add((*path)[i]);
                segment.add((*path)[i + 1]);
                segment.mins.array() -= kLeakPathRadius;
                segment.maxs.array() += kLeakPathRadius;
                changed.push_back(segment);
            }

    // The chunk cells those reach.
    std::unordered_set<uint64_t> keys;
    std::vector<std::array<int64_t, 3>> cells;
    for (const Aabb& box : changed) {
        if (box.empty()) continue;
        const CellRange r = CellRange::of(box, kRegionMargin);
        if (r.count() > double(maxCells)) return std::nullopt;
        bool tooMany = false;
        r.forEach([&](const std::array<int64_t, 3>& c) {
            if (tooMany || !keys.insert(keyOf(c)).second) return;
            cells.push_back(c);
            tooMany = cells.size() > maxCells;
        });
        if (tooMany) return std::nullopt;
    }

    OverlayRegion region;
    region.cells.assign(keys.begin(), keys.end());
    std::sort(region.cells.begin(), region.cells.end());
    region.leaves.assign(leafCount, false);
    if (cells.empty()) return region;
    CellRange all{cells.front(), cells.front()};
    for (const auto& c : cells)
        for (size_t a = 0; a < 3; ++a) {
            all.lo[a] = std::min(all.lo[a], c[a]);
            all.hi[a] = std::max(all.hi[a], c[a]);
        }
    // The leaves whose cell reaches one of the cells (their overlay may draw into it).
    for (size_t leaf = 0; leaf < leafCount; ++leaf) {
        const Aabb& box = after.cellBounds[leaf];
        if (box.empty()) continue;
        const CellRange r = CellRange::of(box, kRegionMargin);
        if (!r.overlaps(all)) continue;
        bool reaches = false;
        if (r.count() <= double(cells.size()))
            r.forEach([&](const std::array<int64_t, 3>& c) { reaches = reaches || keys.count(keyOf(c)); });
        else
            reaches = std::any_of(cells.begin(), cells.end(), [&](const auto& c) { return r.contains(c); });
        if (reaches) {
            region.leaves[leaf] = true;
            ++region.markedLeaves;
        }
    }
    return region;
}

std::vector<MeshChunk> updatedChunks(const std::vector<MeshChunk>& before, const std::vector<int32_t>& leafOfBefore,
                                     const OverlayRegion& region, MeshBatch redrawn) {
    auto inRegion = [&](const MeshChunk& c) { return std::binary_search(region.cells.begin(), region.cells.end(), c.cell); };
    std::vector<MeshChunk> fresh = splitIntoChunks(std::move(redrawn));
    std::vector<MeshChunk> out;
    out.reserve(before.size() + fresh.size());
    size_t i = 0, j = 0;
    for (;;) {
        while (i < before.size() && inRegion(before[i])) ++i;
        while (j < fresh.size() && !inRegion(fresh[j])) ++j;
        if (i == before.size() && j == fresh.size()) break;
        if (j == fresh.size() || (i < before.size() && before[i].cell < fresh[j].cell)) {
            MeshChunk& kept = out.emplace_back(before[i++]);
            // A run of a leaf the update removed would be a region too small: drawn from
            // everywhere (-1) rather than named wrongly.
            for (LeafRun& run : kept.leafRuns)
                run.leaf = run.leaf >= 0 && size_t(run.leaf) < leafOfBefore.size() ? leafOfBefore[size_t(run.leaf)] : -1;
        } else {
            out.push_back(std::move(fresh[j++]));
        }
    }
    return out;
}

} // namespace shallot::render
