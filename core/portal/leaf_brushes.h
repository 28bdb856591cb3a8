#pragma once
#include "compile/bsp_tree.h"
#include "geometry/aabb.h"

#include <span>
#include <vector>

namespace shallot {

// For each leaf of a tree, the brushes whose box reaches the leaf's cell through the tree:
// it comes within kLeafBrushMargin of the leaf's side of every splitter above the leaf. A
// brush face the eye sees is seen through the empty leaf in front of it, a leaf whose
// cell the face touches; so the brushes listed for the leaves seen from the eye
// (leaf_visibility.h) are all the brushes that can show, and the 3D view draws those
// alone (Quake's renderer draws the faces of its potentially visible leaves the same way).
// Brushes are numbered as in `brushBoxes`; an empty box (an invalid brush) is near nothing.
// Leaves solid for the sight pose are never seen and list no brush.
class LeafBrushes {
public:
    LeafBrushes() = default;
    LeafBrushes(const BspTree& tree, const std::vector<Aabb>& brushBoxes);

    size_t brushCount() const { return brushCount_; }
    size_t leafCount() const { return first_.empty() ? 0 : first_.size() - 1; }
    // The brushes near leaf `leaf`, ascending.
    std::span<const uint32_t> brushesNear(int32_t leaf) const {
        return {brushes_.data() + first_[size_t(leaf)], first_[size_t(leaf) + 1] - first_[size_t(leaf)]};
    }
    // Brushes near any leaf with seenLeaves[leaf] set; brushCount() entries.
    std::vector<bool> seenBrushes(const std::vector<bool>& seenLeaves) const;

private:
    std::vector<uint32_t> first_;   // per leaf, its first entry in brushes_ (one more at the end)
    std::vector<uint32_t> brushes_; // brush numbers, ascending per leaf
    size_t brushCount_ = 0;
};

} // namespace shallot
