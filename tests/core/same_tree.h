#pragma once
// Exact comparison of trees (bit for bit: every double, every index), for tests that say
// two trees are the same tree: a file read back, a result left untouched.
#include "compile/bsp_tree.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <span>

namespace shallot::test {

inline bool same(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }
inline bool same(const Vec3& a, const Vec3& b) { return same(a.x(), b.x()) && same(a.y(), b.y()) && same(a.z(), b.z()); }

inline void expectSameVertices(std::span<const Vec3> a, std::span<const Vec3> b, size_t element) {
    ASSERT_EQ(a.size(), b.size()) << element;
    for (size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(same(a[k], b[k])) << element << " " << k;
}

// Two flat lists alike item by item: their fields (sameFields) and their vertices.
template <class Item, class SameFields>
void expectSameItems(const FlatPolygons<Item>& a, const FlatPolygons<Item>& b, const SameFields& sameFields) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        sameFields(a[i], b[i], i);
        expectSameVertices(a.vertices(i), b.vertices(i), i);
    }
}

inline void expectSameTree(const BspTree& a, const BspTree& b) {
    ASSERT_EQ(a.poses.size(), b.poses.size());
    for (size_t i = 0; i < a.poses.size(); ++i) {
        EXPECT_EQ(a.poses[i].name, b.poses[i].name);
        EXPECT_TRUE(same(a.poses[i].mins, b.poses[i].mins)) << i;
        EXPECT_TRUE(same(a.poses[i].maxs, b.poses[i].maxs)) << i;
        EXPECT_EQ(a.poses[i].colour, b.poses[i].colour);
    }
    ASSERT_EQ(a.planes.size(), b.planes.size());
    for (size_t i = 0; i < a.planes.size(); ++i) {
        EXPECT_TRUE(same(a.planes[i].normal, b.planes[i].normal)) << i;
        EXPECT_TRUE(same(a.planes[i].dist, b.planes[i].dist)) << i;
    }
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    for (size_t i = 0; i < a.nodes.size(); ++i) {
        EXPECT_EQ(a.nodes[i].plane, b.nodes[i].plane) << i;
        EXPECT_EQ(a.nodes[i].front, b.nodes[i].front) << i;
        EXPECT_EQ(a.nodes[i].back, b.nodes[i].back) << i;
    }
    EXPECT_EQ(a.root, b.root);
    EXPECT_EQ(a.leafSolid, b.leafSolid);
    ASSERT_EQ(a.leaves.size(), b.leaves.size());
    for (size_t i = 0; i < a.leaves.size(); ++i) {
        const LeafInfo &x = a.leaves[i], &y = b.leaves[i];
        EXPECT_TRUE(same(x.interiorPoint, y.interiorPoint)) << i;
        EXPECT_TRUE(same(x.clearance, y.clearance)) << i;
        EXPECT_TRUE(same(x.volume, y.volume)) << i;
        EXPECT_EQ(x.firstPolygon, y.firstPolygon) << i;
        EXPECT_EQ(x.polygonCount, y.polygonCount) << i;
        EXPECT_EQ(x.depth, y.depth) << i;
        EXPECT_EQ(x.degenerate, y.degenerate) << i;
    }
    expectSameItems(a.polygons, b.polygons, [](const LeafPolygon& x, const LeafPolygon& y, size_t i) {
        EXPECT_EQ(x.plane, y.plane) << i;
        EXPECT_EQ(x.pose, y.pose) << i;
        EXPECT_EQ(x.brush, y.brush) << i;
    });
    EXPECT_TRUE(same(a.bounds.mins, b.bounds.mins));
    EXPECT_TRUE(same(a.bounds.maxs, b.bounds.maxs));
}

inline void expectSamePortals(const BspTree& a, const BspTree& b) {
    expectSameItems(a.portals, b.portals, [](const Portal& x, const Portal& y, size_t i) {
        EXPECT_EQ(x.plane, y.plane) << i;
        EXPECT_EQ(x.front, y.front) << i;
        EXPECT_EQ(x.back, y.back) << i;
        EXPECT_EQ(x.poses, y.poses) << i;
    });
}

} // namespace shallot::test
