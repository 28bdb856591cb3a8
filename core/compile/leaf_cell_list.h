#pragma once
#include "geometry/convex_polyhedron.h"

#include <memory>
#include <vector>

namespace shallot {

// Leaf cells indexed by leaf, each held by a shared pointer: a compile hands its cells on
// to the editor's overlays without copying 10^5 polyhedra (a deep copy took librequake_e3m4
// 0.8-1.2 s of every edit), and the next incremental compile keeps those of the leaves it
// copies. A missing cell reads as empty.
class LeafCellList {
public:
    size_t size() const { return cells_.size(); }
    const ConvexPolyhedron& operator[](size_t leaf) const {
        static const ConvexPolyhedron none;
        return cells_[leaf] ? *cells_[leaf] : none;
    }
    const std::shared_ptr<const ConvexPolyhedron>& share(size_t leaf) const { return cells_[leaf]; }
    void reserve(size_t n) { cells_.reserve(n); }
    void push_back(std::shared_ptr<const ConvexPolyhedron> cell) { cells_.push_back(std::move(cell)); }
    void push_back(ConvexPolyhedron&& cell) { cells_.push_back(std::make_shared<const ConvexPolyhedron>(std::move(cell))); }
    void append(const LeafCellList& more) { cells_.insert(cells_.end(), more.cells_.begin(), more.cells_.end()); }

private:
    std::vector<std::shared_ptr<const ConvexPolyhedron>> cells_;
};

} // namespace shallot
