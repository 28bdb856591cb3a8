#pragma once
// Comparing two trees of one world by their answers (the soak's final check, the editor
// tests' previews).
#include "compile/bsp_tree.h"
#include "geometry/tolerances.h"

#include <QString>
#include <random>
#include <vector>

namespace shallot {

// Where two trees of the same world answer differently: the solidity bits at every leaf's
// interior point of both trees and at `randomPoints` random points of `box`. The editor's
// incremental compile keeps unchanged subtrees, so its tree need not be the fresh
// compile's node for node, only answer the same (incremental_compiler.h). Leaves whose
// interior point lies closer than kOnPlaneEpsilon to their cell's boundary (slivers) are
// left out: polygons are placed to that tolerance, so there two trees may read either
// side. (Seed 1 under load made a 0.001-wide brush by clips, and an update kept a sliver
// cell whose point, 7e-5 from a face of its large-pose hull, read empty where the fresh
// tree read solid; 2026-11-25, stop 26.)
inline QString answerDifference(const BspTree& a, const BspTree& b, const Aabb& box, int randomPoints) {
    std::vector<Vec3> points;
    for (const BspTree* tree : {&a, &b})
        for (const LeafInfo& leaf : tree->leaves)
            if (leaf.clearance >= kOnPlaneEpsilon) points.push_back(leaf.interiorPoint);
    std::mt19937 rng(7);
    for (int i = 0; i < randomPoints && !box.empty(); ++i) {
        Vec3 p;
        for (int k = 0; k < 3; ++k) p[k] = std::uniform_real_distribution<double>(box.mins[k], box.maxs[k])(rng);
        points.push_back(p);
    }
    for (const Vec3& p : points)
        if (a.solidityAt(p) != b.solidityAt(p))
            return QString("at (%1, %2, %3): bits %4 vs %5").arg(p.x()).arg(p.y()).arg(p.z()).arg(a.solidityAt(p)).arg(b.solidityAt(p));
    return QString();
}

} // namespace shallot
