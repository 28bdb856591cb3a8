#pragma once
#include "geometry/plane.h"

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace shallot {

// Items that each carry a convex polygon (a tree's leaf polygons, its portals), stored
// flat: the items in one array, every polygon's vertices in another (item.firstVertex,
// item.vertexCount). A tree holds hundreds of thousands of them and the incremental
// compiler copies the tree after every edit: two array copies instead of one heap
// allocation per polygon. The container sets firstVertex and vertexCount; the items' other
// fields are the caller's to change. The vertices are kept in item order, each item's right
// after the previous one's, so a run of items owns one run of vertices (appendRange).
template <class Item>
class FlatPolygons {
public:
    FlatPolygons() = default;
    FlatPolygons(FlatPolygons&&) noexcept = default;
    FlatPolygons& operator=(FlatPolygons&&) noexcept = default;
    // Copies get capacities in steps (steppedCapacity), like reserve.
    FlatPolygons(const FlatPolygons& other) { *this = other; }
    FlatPolygons& operator=(const FlatPolygons& other) {
        if (this == &other) return *this;
        clear();
        reserve(other.items_.size(), other.vertices_.size());
        items_.insert(items_.end(), other.items_.begin(), other.items_.end());
        vertices_.insert(vertices_.end(), other.vertices_.begin(), other.vertices_.end());
        return *this;
    }

    size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    Item& operator[](size_t i) { return items_[i]; }
    const Item& operator[](size_t i) const { return items_[i]; }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }

    std::span<const Vec3> vertices(const Item& item) const {
        return {vertices_.data() + item.firstVertex, item.vertexCount};
    }
    std::span<const Vec3> vertices(size_t i) const { return vertices(items_[i]); }
    size_t vertexTotal() const { return vertices_.size(); }
    // The vertices of items [first, first + count).
    size_t vertexTotal(size_t first, size_t count) const {
        if (count == 0) return 0;
        const size_t end = first + count < items_.size() ? items_[first + count].firstVertex : vertices_.size();
        return end - items_[first].firstVertex;
    }

    // Appends `item` with a copy of `polygon`'s vertices.
    Item& add(Item item, std::span<const Vec3> polygon) {
        item.firstVertex = uint32_t(vertices_.size());
        item.vertexCount = uint32_t(polygon.size());
        vertices_.insert(vertices_.end(), polygon.begin(), polygon.end());
        items_.push_back(item);
        return items_.back();
    }
    // Appends every item of `other`, in order.
    void append(const FlatPolygons& other) { appendRange(other, 0, other.size()); }
    // Appends items [first, first + count) of `other`, in order, with their vertices.
    void appendRange(const FlatPolygons& other, size_t first, size_t count) {
        if (count == 0) return;
        const uint32_t from = other.items_[first].firstVertex;
        const uint32_t to = from + uint32_t(other.vertexTotal(first, count));
        const uint32_t offset = uint32_t(vertices_.size()) - from;
        vertices_.insert(vertices_.end(), other.vertices_.begin() + from, other.vertices_.begin() + to);
        const size_t at = items_.size();
        const auto items = other.items_.begin() + std::ptrdiff_t(first);
        items_.insert(items_.end(), items, items + std::ptrdiff_t(count));
        for (size_t i = at; i < items_.size(); ++i) items_[i].firstVertex += offset;
    }

    void reserve(size_t items, size_t vertices) {
        items_.reserve(steppedCapacity(items));
        vertices_.reserve(steppedCapacity(vertices));
    }
    void clear() {
        items_.clear();
        vertices_.clear();
    }
    size_t bytes() const { return items_.size() * sizeof(Item) + vertices_.size() * sizeof(Vec3); }

private:
    // n rounded up to a step of 1/8 of its power of two. The arrays of a tree are made
    // again after every edit, a little larger or smaller; in steps, a new array fits the
    // block an older one freed, so an allocator that keeps freed blocks (tcmalloc) reuses
    // them instead of growing the heap.
    static size_t steppedCapacity(size_t n) {
        if (n <= 64) return n;
        const size_t step = std::bit_floor(n) / 8;
        return (n + step - 1) / step * step;
    }

    std::vector<Item> items_;
    std::vector<Vec3> vertices_;
};

} // namespace shallot
