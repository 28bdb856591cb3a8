#include "leaf_brushes.h"

#include "geometry/tolerances.h"
#include "portal/leaf_visibility.h"

namespace shallot {

LeafBrushes::LeafBrushes(const BspTree& tree, const std::vector<Aabb>& brushBoxes) : brushCount_(brushBoxes.size()) {
    const size_t leafCount = tree.leafCount();
    const int sight = sightPose(tree);
    // (leaf, brush) pairs from each brush's box pushed down the tree, then grouped by leaf.
    // (Testing the box against each reached cell's box as well cost five times the descent
    // on librequake_e3m4 and left out 2% more brushes per view.)
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    std::vector<ChildRef> stack;
    for (size_t brush = 0; brush < brushBoxes.size(); ++brush) {
        const Aabb& box = brushBoxes[brush];
        if (box.empty()) continue;
        const Vec3 centre = 0.5 * (box.mins + box.maxs), half = 0.5 * (box.maxs - box.mins);
        stack.assign(1, tree.root);
        while (!stack.empty()) {
            const ChildRef r = stack.back();
            stack.pop_back();
            if (isLeaf(r)) {
                const size_t leaf = size_t(leafIndex(r));
                if (sight < 0 || !((tree.leafSolid[leaf] >> sight) & 1u))
                    pairs.emplace_back(uint32_t(leaf), uint32_t(brush));
                continue;
            }
            const BspNode& node = tree.nodes[size_t(r)];
            const Plane& plane = tree.planes[size_t(node.plane)];
            const double d = plane.signedDistance(centre), reach = plane.normal.cwiseAbs().dot(half) + kLeafBrushMargin;
            if (d > -reach) stack.push_back(node.front);
            if (d < reach) stack.push_back(node.back);
        }
    }
    first_.assign(leafCount + 1, 0);
    for (const auto& [leaf, brush] : pairs) ++first_[leaf + 1];
    for (size_t leaf = 0; leaf < leafCount; ++leaf) first_[leaf + 1] += first_[leaf];
    brushes_.resize(pairs.size());
    std::vector<uint32_t> next(first_.begin(), first_.end() - 1);
    for (const auto& [leaf, brush] : pairs) brushes_[next[leaf]++] = brush; // brushes come in ascending order
}

std::vector<bool> LeafBrushes::seenBrushes(const std::vector<bool>& seenLeaves) const {
    std::vector<bool> seen(brushCount_, false);
    const size_t leaves = std::min(leafCount(), seenLeaves.size());
    for (size_t leaf = 0; leaf < leaves; ++leaf)
        if (seenLeaves[leaf])
            for (uint32_t k = first_[leaf]; k < first_[leaf + 1]; ++k) seen[brushes_[k]] = true;
    return seen;
}

} // namespace shallot
