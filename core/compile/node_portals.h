#pragma once
#include "compile/bsp_tree.h"

#include <vector>

namespace shallot {

// The same portals as generatePortals (portal/portal_generation.h), which come out grouped
// by the node whose split plane they lie on, in pre-order, i.e. by node index. A node's
// portals depend only on its cell and its subtree, so nodes are independent: they are
// generated on up to `threads` threads, and a later compile can copy those of the nodes
// whose subtree it kept. `first[n]` receives the index of node n's first portal.
Portals generateNodePortals(const BspTree& tree, int threads, std::vector<uint32_t>& first);

// What a tree keeps of the previous tree's portals.
struct PortalReuse {
    const Portals& portals;                   // the previous tree's, grouped by node
    const std::vector<uint32_t>& first;       // the previous tree's first portal per node
    const std::vector<int32_t>& nodeSource;   // per node: the previous node it copies whole, or -1
    const std::vector<int32_t>& leafOfOld;    // per previous leaf: its copy, or -1
};

// As generateNodePortals, but a node whose nodeSource is a previous node takes that node's
// portals (copied from reuse.portals) with their leaves renumbered. Every ancestor of a
// node with nodeSource -1 must have nodeSource -1 too (a copied node's whole subtree is a
// copy).
Portals updateNodePortals(const BspTree& tree, const PortalReuse& reuse, int threads, std::vector<uint32_t>& first);

} // namespace shallot
