#include "portal/leaf_sections.h"

#include "portal/leaf_cells.h"

#include <algorithm>

namespace shallot {

namespace {

// The box's section: a rectangle counter-clockwise seen from +axis (u, v follow the axis
// cyclically, so u x v points along it).
Polygon boxSection(const Aabb& box, int axis, double at) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    Polygon out;
    for (const auto& [cu, cv] : {std::pair{0, 0}, std::pair{1, 0}, std::pair{1, 1}, std::pair{0, 1}}) {
        Vec3 p;
        p[axis] = at;
        p[u] = cu ? box.maxs[u] : box.mins[u];
        p[v] = cv ? box.maxs[v] : box.mins[v];
        out.vertices.push_back(p);
    }
    return out;
}

// The parts of a polygon on the plane's front (d >= 0) and back (d <= 0), split exactly by
// the signs of the vertices' distances `d`: no tolerance, so no sliver of the polygon goes
// to the side the descent would not send its points to. A part without area is dropped.
void splitExactly(const Polygon& polygon, const std::vector<double>& d, Polygon& front, Polygon& back) {
    const std::vector<Vec3>& v = polygon.vertices;
    const size_t n = v.size();
    for (size_t i = 0; i < n; ++i) {
        const size_t j = (i + 1) % n;
        if (d[i] >= 0) front.vertices.push_back(v[i]);
        if (d[i] <= 0) back.vertices.push_back(v[i]);
        if ((d[i] > 0 && d[j] < 0) || (d[i] < 0 && d[j] > 0)) {
            // Both ends lie on the section plane, so the crossing does too, exactly.
            const Vec3 p = v[i] + (v[j] - v[i]) * (d[i] / (d[i] - d[j]));
            front.vertices.push_back(p);
            back.vertices.push_back(p);
        }
    }
    if (front.vertices.size() < 3) front.vertices.clear();
    if (back.vertices.size() < 3) back.vertices.clear();
}

} // namespace

std::vector<LeafSection> leafSections(const BspTree& tree, int axis, double at) {
    const Aabb box = treeBox(tree);
    if (!(box.mins[axis] <= at && at <= box.maxs[axis])) return {};
    std::vector<LeafSection> out;
    std::vector<std::pair<ChildRef, Polygon>> stack;
    stack.emplace_back(tree.root, boxSection(box, axis, at));
    std::vector<double> d;
    // A node shared by two parents (a malformed tree) is cut once, as visitCells does.
    std::vector<bool> visited(tree.nodes.size(), false);
    while (!stack.empty()) {
        auto [ref, polygon] = std::move(stack.back());
        stack.pop_back();
        if (isLeaf(ref)) {
            out.push_back({leafIndex(ref), std::move(polygon)});
            continue;
        }
        if (visited[size_t(ref)]) continue;
        visited[size_t(ref)] = true;
        const BspNode& n = tree.nodes[size_t(ref)];
        const Plane& plane = tree.planes[size_t(n.plane)];
        if (plane.axis() == axis) {
            // Parallel: the whole polygon is on one side, or on the plane, where a point
            // reads the front side (childAt) with the same arithmetic as the descent.
            const Vec3& p = polygon.vertices.front();
            stack.emplace_back(childAt(n, plane.signedDistance(p)), std::move(polygon));
            continue;
        }
        d.clear();
        for (const Vec3& p : polygon.vertices) d.push_back(plane.signedDistance(p));
        const auto [lo, hi] = std::minmax_element(d.begin(), d.end());
        if (*lo >= 0) stack.emplace_back(n.front, std::move(polygon));
        else if (*hi <= 0) stack.emplace_back(n.back, std::move(polygon));
        else {
            Polygon front, back;
            splitExactly(polygon, d, front, back);
            if (!front.empty()) stack.emplace_back(n.front, std::move(front));
            if (!back.empty()) stack.emplace_back(n.back, std::move(back));
        }
    }
    return out;
}

} // namespace shallot
