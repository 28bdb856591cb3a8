#include "round_surface_batch.h"

#include "palette.h"
#include "portal/leaf_visibility.h"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_set>

namespace shallot::render {

namespace {

// The segments where the plane cuts one brush's triangles.
void addSection(MeshBatch& lines, const std::vector<RoundSurfaceVertex>& triangles, int axis, double at) {
    for (size_t i = 0; i + 2 < triangles.size(); i += 3) {
        // A corner on the plane counts as above it, so an edge through it is cut once.
        std::array<Vec3, 2> cut;
        int found = 0;
        for (size_t k = 0; k < 3 && found < 2; ++k) {
            const Vec3& a = triangles[i + k].position;
            const Vec3& b = triangles[i + (k + 1) % 3].position;
            const double da = a[axis] - at, db = b[axis] - at;
            if ((da < 0.0) == (db < 0.0)) continue;
            cut[size_t(found++)] = a + (b - a) * (da / (da - db));
        }
        if (found == 2) lines.addLine(cut[0], cut[1], kExpandedWorldColour);
    }
}

Vec3 probePoint(const RoundSurfaceVertex& v) { return v.position + kRoundSurfaceLeafProbe * v.normal; }

// The leaf a triangle belongs to (roundSurfaceBatch's rule) from its corners' leaves.
int32_t triangleLeaf(const int32_t* corners, const BspTree& tree, int sight) {
    const int32_t leaf = corners[0];
    if (leaf < 0 || corners[1] != leaf || corners[2] != leaf) return -1;
    return ((tree.leafSolid[size_t(leaf)] >> sight) & 1u) ? -1 : leaf;
}

} // namespace

MeshBatch roundSurfaceBatch(const std::vector<RoundSurfacePiece>& pieces, const BspTree& tree) {
    MeshBatch batch;
    const QColor colour = kExpandedWorldColour;
    size_t total = 0;
    for (const RoundSurfacePiece& piece : pieces) total += piece ? piece->size() : 0;
    batch.vertices.reserve(total);
    const int sight = sightPose(tree);
    for (const RoundSurfacePiece& piece : pieces) {
        if (!piece) continue;
        const std::vector<RoundSurfaceVertex>& t = *piece;
        for (size_t i = 0; i + 2 < t.size(); i += 3) {
            int32_t leaf = -1;
            if (sight >= 0 && tree.leafCount()) {
                const std::array<int32_t, 3> corners{tree.findLeaf(probePoint(t[i])), tree.findLeaf(probePoint(t[i + 1])),
                                                     tree.findLeaf(probePoint(t[i + 2]))};
                leaf = triangleLeaf(corners.data(), tree, sight);
            }
            batch.setLeaf(leaf);
            batch.addSmoothTriangle({t[i].position, t[i + 1].position, t[i + 2].position},
                                    {t[i].normal, t[i + 1].normal, t[i + 2].normal}, colour);
        }
    }
    return batch;
}

std::vector<MeshChunk> RoundSurfaceChunker::update(const std::vector<RoundSurfacePiece>& pieces, const BspTree& tree,
                                                   const std::vector<int32_t>* leafOfLast) {
    lookedUp_ = keptChunks_ = 0;
    const int sight = sightPose(tree);
    const bool lookUp = sight >= 0 && tree.leafCount();
    const QColor colour = kExpandedWorldColour;
    // Chunk cells to draw again: those of new and gone pieces, and of triangles with a
    // corner looked up again (its leaf gone, or nothing carried).
    std::unordered_set<uint64_t> dirty;
    // The pieces, kept or made, in `pieces` order (a piece held twice is drawn twice, as
    // roundSurfaceBatch draws it).
    std::unordered_map<const void*, Piece> next;
    std::vector<const Piece*> order;
    for (const RoundSurfacePiece& source : pieces) {
        if (!source || source->size() < 3) continue;
        auto [at, made] = next.try_emplace(source.get());
        Piece& piece = at->second;
        order.push_back(&piece);
        if (!made) continue;
        const auto kept = pieces_.find(source.get());
        const bool carried = kept != pieces_.end() && kept->second.source == source;
        if (carried) {
            piece = std::move(kept->second);
            pieces_.erase(kept);
        } else {
            piece.source = source;
            MeshBatch converted;
            std::map<uint64_t, std::vector<uint32_t>> cells;
            const std::vector<RoundSurfaceVertex>& t = *source;
            for (size_t i = 0; i + 2 < t.size(); i += 3) {
                converted.addSmoothTriangle({t[i].position, t[i + 1].position, t[i + 2].position},
                                            {t[i].normal, t[i + 1].normal, t[i + 2].normal}, colour);
                const float* p = converted.vertices[i].position;
                cells[chunkCellKey(chunkCoordinate(p[0]), chunkCoordinate(p[1]), chunkCoordinate(p[2]))].push_back(uint32_t(i / 3));
            }
            piece.vertices = std::move(converted.vertices);
            piece.cellOfTriangle.resize(piece.vertices.size() / 3);
            for (const auto& [cell, triangles] : cells) {
                for (const uint32_t tri : triangles) piece.cellOfTriangle[tri] = uint32_t(piece.cells.size());
                piece.cells.emplace_back(cell, triangles);
                dirty.insert(cell);
            }
            piece.cornerLeaves.assign(piece.vertices.size(), -1);
        }
        // Each corner's leaf in this tree: carried over where its leaf was kept.
        for (size_t v = 0; v < piece.cornerLeaves.size(); ++v) {
            int32_t& leaf = piece.cornerLeaves[v];
            const bool carries = carried && leafOfLast && leaf >= 0 && size_t(leaf) < leafOfLast->size();
            leaf = carries ? (*leafOfLast)[size_t(leaf)] : -1;
            if (leaf < 0 && lookUp) {
                leaf = tree.findLeaf(probePoint((*source)[v]));
                ++lookedUp_;
                if (carried) dirty.insert(piece.cells[piece.cellOfTriangle[v / 3]].first);
            }
        }
    }
    for (const auto& [key, gone] : pieces_)
        for (const auto& cell : gone.cells) dirty.insert(cell.first);
    // Per cell, the pieces that reach it (in `pieces` order).
    std::map<uint64_t, std::vector<uint32_t>> reach;
    for (size_t k = 0; k < order.size(); ++k)
        for (const auto& cell : order[k]->cells) reach[cell.first].push_back(uint32_t(k));
    std::unordered_map<uint64_t, MeshChunk> nextChunks;
    std::vector<MeshChunk> out;
    out.reserve(reach.size());
    struct Entry {
        int32_t leaf;
        uint32_t piece, triangle;
    };
    for (const auto& [cell, reaching] : reach) {
        const auto kept = chunks_.find(cell);
        MeshChunk& chunk = out.emplace_back();
        chunk.cell = cell;
        if (kept != chunks_.end() && !dirty.count(cell)) {
            // The same triangles with the same corners' leaves but renumbered.
            chunk.geometry = kept->second.geometry;
            chunk.bounds = kept->second.bounds;
            chunk.leafRuns = kept->second.leafRuns;
            if (leafOfLast)
                for (LeafRun& run : chunk.leafRuns)
                    if (run.leaf >= 0) run.leaf = (*leafOfLast)[size_t(run.leaf)];
            ++keptChunks_;
        } else {
            // Its triangles in `pieces` order, grouped by leaf as splitIntoChunks groups them.
            std::vector<Entry> entries;
            for (const uint32_t k : reaching) {
                const Piece& piece = *order[k];
                const auto it = std::lower_bound(piece.cells.begin(), piece.cells.end(), cell,
                                                 [](const auto& c, uint64_t key) { return c.first < key; });
                for (const uint32_t t : it->second)
                    entries.push_back({lookUp ? triangleLeaf(&piece.cornerLeaves[3 * size_t(t)], tree, sight) : -1, k, t});
            }
            std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.leaf < b.leaf; });
            auto geometry = std::make_shared<MeshBatch>();
            geometry->vertices.reserve(3 * entries.size());
            for (const Entry& e : entries) {
                geometry->setLeaf(e.leaf);
                for (size_t v = 3 * size_t(e.triangle); v < 3 * size_t(e.triangle) + 3; ++v) {
                    const Vertex& vertex = order[e.piece]->vertices[v];
                    geometry->vertices.push_back(vertex);
                    chunk.bounds.add(Vec3(vertex.position[0], vertex.position[1], vertex.position[2]));
                }
            }
            chunk.leafRuns = std::move(geometry->leafRuns);
            geometry->leafRuns = {};
            chunk.geometry = std::move(geometry);
        }
        nextChunks.emplace(cell, chunk);
    }
    pieces_ = std::move(next);
    chunks_ = std::move(nextChunks);
    return out;
}

void addRoundSurfaceSection(MeshBatch& lines, const std::vector<RoundSurfacePiece>& pieces, int axis, double at,
                            const std::vector<Aabb>* bounds) {
    for (size_t i = 0; i < pieces.size(); ++i) {
        if (!pieces[i]) continue;
        if (bounds && i < bounds->size() && ((*bounds)[i].empty() || (*bounds)[i].mins[axis] > at || (*bounds)[i].maxs[axis] < at))
            continue;
        addSection(lines, *pieces[i], axis, at);
    }
}

} // namespace shallot::render
