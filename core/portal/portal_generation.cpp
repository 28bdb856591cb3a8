#include "portal/portal_generation.h"

#include "compile/bsp_builder.h"
#include "geometry/tolerances.h"
#include "portal/leaf_cells.h"

namespace shallot {

namespace {

uint64_t allPoses(const BspTree& tree) {
    return tree.poses.size() >= 64 ? ~uint64_t(0) : (uint64_t(1) << tree.poses.size()) - 1;
}

bool finite(const Polygon& p) {
    for (const Vec3& v : p.vertices)
        if (!v.allFinite()) return false;
    return true;
}

} // namespace

uint64_t bothEmptyPoses(const BspTree& tree, int32_t a, int32_t b) {
    return ~(tree.leafSolid[size_t(a)] | tree.leafSolid[size_t(b)]) & allPoses(tree);
}

void pushPolygon(const BspTree& tree, ChildRef start, Polygon polygon, const Vec3& towards,
                 const std::function<void(int32_t leaf, Polygon&& piece)>& visit) {
    std::vector<std::pair<ChildRef, Polygon>> stack;
    stack.emplace_back(start, std::move(polygon));
    while (!stack.empty()) {
        auto [ref, piece] = std::move(stack.back());
        stack.pop_back();
        if (isLeaf(ref)) {
            visit(leafIndex(ref), std::move(piece));
            continue;
        }
        const BspNode& n = tree.nodes[size_t(ref)];
        const Plane& plane = tree.planes[size_t(n.plane)];
        switch (classify(piece, plane, kOnPlaneEpsilon)) {
        case Side::Front: stack.emplace_back(n.front, std::move(piece)); break;
        case Side::Back: stack.emplace_back(n.back, std::move(piece)); break;
        case Side::On: stack.emplace_back(plane.normal.dot(towards) > 0.0 ? n.front : n.back, std::move(piece)); break;
        case Side::Straddle: {
            SplitPolygon s = split(piece, plane, kOnPlaneEpsilon);
            if (!s.back.empty()) stack.emplace_back(n.back, std::move(s.back));
            if (!s.front.empty()) stack.emplace_back(n.front, std::move(s.front));
            break;
        }
        }
    }
}

void appendNodePortals(const BspTree& tree, int32_t node, const Polygon& section, Portals& out) {
    if (section.empty()) return;
    const uint64_t all = allPoses(tree);
    const BspNode& n = tree.nodes[size_t(node)];
    const Vec3& normal = tree.planes[size_t(n.plane)].normal;
    pushPolygon(tree, n.front, section, normal, [&](int32_t front, Polygon&& piece) {
        // Solid in every pose: no portal can open from this leaf.
        if ((tree.leafSolid[size_t(front)] & all) == all) return;
        pushPolygon(tree, n.back, std::move(piece), -normal, [&](int32_t back, Polygon&& p) {
            const uint64_t poses = bothEmptyPoses(tree, front, back);
            // A shared leaf or non-finite numbers: a malformed tree.
            if (poses == 0 || front == back || !finite(p)) return;
            out.add({n.plane, front, back, poses}, p.vertices);
        });
    });
}

Portals generatePortals(const BspTree& tree) {
    Portals portals;
    visitCells(tree, {[&](int32_t node, const ConvexPolyhedron&, const Polygon& section) {
                          appendNodePortals(tree, node, section, portals);
                      },
                      nullptr});
    return portals;
}

std::string portalGenerationProblem(const BspTree& tree) {
    std::vector<uint8_t> nodeParents(tree.nodes.size(), 0), leafParents(tree.leaves.size(), 0);
    auto adopt = [&](ChildRef c) -> std::string {
        uint8_t& parents = isLeaf(c) ? leafParents[size_t(leafIndex(c))] : nodeParents[size_t(c)];
        if (++parents == 1) return {};
        return std::string(isLeaf(c) ? "leaf " : "node ") + std::to_string(isLeaf(c) ? leafIndex(c) : c) +
               " has two parents";
    };
    if (std::string e = adopt(tree.root); !e.empty()) return e;
    for (const BspNode& n : tree.nodes)
        for (ChildRef c : {n.front, n.back})
            if (std::string e = adopt(c); !e.empty()) return e;
    // Every node has one parent, so this walk ends and visits each node once.
    std::vector<std::pair<ChildRef, int>> stack{{tree.root, 0}};
    while (!stack.empty()) {
        const auto [ref, depth] = stack.back();
        stack.pop_back();
        if (depth > kMaxTreeDepth) return "the tree is deeper than " + std::to_string(kMaxTreeDepth) + " levels";
        if (isLeaf(ref)) continue;
        stack.push_back({tree.nodes[size_t(ref)].front, depth + 1});
        stack.push_back({tree.nodes[size_t(ref)].back, depth + 1});
    }
    return {};
}

} // namespace shallot
