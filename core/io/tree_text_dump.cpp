#include "io/tree_text_dump.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>

namespace shallot {

namespace {

std::string num(double d) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    return buf;
}

std::string vec(const Vec3& v) { return "(" + num(v.x()) + " " + num(v.y()) + " " + num(v.z()) + ")"; }

std::string plane(const BspTree& t, PlaneId id) {
    if (id < 0 || size_t(id) >= t.planes.size()) return "(bad plane)";
    const Plane& p = t.planes[size_t(id)];
    return "(" + num(p.normal.x()) + " " + num(p.normal.y()) + " " + num(p.normal.z()) + " " + num(p.dist) + ")";
}

std::string poseName(const BspTree& t, size_t pose) {
    return pose < t.poses.size() ? t.poses[pose].name : "#" + std::to_string(pose);
}

// The names of the poses whose bit in `bits` equals `set`, e.g. "{player,large}".
std::string poseSet(const BspTree& t, uint64_t bits, bool set) {
    std::string s = "{";
    for (size_t p = 0; p < t.poses.size() && p < 64; ++p) {
        if (bool((bits >> p) & 1u) != set) continue;
        if (s.size() > 1) s += ",";
        s += t.poses[p].name;
    }
    return s + "}";
}

void dumpLeaf(const BspTree& t, int32_t leaf, const std::string& indent, std::ostream& out) {
    if (leaf < 0 || size_t(leaf) >= t.leaves.size() || size_t(leaf) >= t.leafSolid.size()) {
        out << indent << "leaf " << leaf << " (out of range)\n";
        return;
    }
    const LeafInfo& l = t.leaves[size_t(leaf)];
    const uint64_t bits = t.leafSolid[size_t(leaf)];
    out << indent << "leaf " << leaf << " solid " << poseSet(t, bits, true) << " empty " << poseSet(t, bits, false)
        << " polys " << l.polygonCount << " point " << vec(l.interiorPoint) << " clearance " << num(l.clearance)
        << " volume " << num(l.volume) << " depth " << l.depth << (l.degenerate ? " degenerate" : "") << "\n";
    for (uint64_t i = l.firstPolygon; i < uint64_t(l.firstPolygon) + l.polygonCount; ++i) {
        if (i >= t.polygons.size()) {
            out << indent << "  poly " << i << " (out of range)\n";
            break;
        }
        const LeafPolygon& p = t.polygons[size_t(i)];
        out << indent << "  poly " << i << " plane " << p.plane << " pose " << poseName(t, p.pose) << " brush "
            << p.brush;
        for (const Vec3& v : t.polygons.vertices(p)) out << " " << vec(v);
        out << "\n";
    }
}

} // namespace

void dumpTreeText(const BspTree& t, std::ostream& out) {
    out << "tree: " << t.poses.size() << " poses, " << t.planes.size() << " planes, " << t.nodes.size()
        << " nodes, " << t.leaves.size() << " leaves, " << t.polygons.size() << " polygons\n";
    out << "bounds " << vec(t.bounds.mins) << " " << vec(t.bounds.maxs) << "\n";
    for (size_t i = 0; i < t.poses.size(); ++i) {
        const Pose& p = t.poses[i];
        char colour[16];
        std::snprintf(colour, sizeof colour, "%08x", unsigned(p.colour));
        out << "pose " << i << " " << p.name << " box " << vec(p.mins) << " " << vec(p.maxs) << " colour " << colour
            << "\n";
    }

    std::vector<PlaneId> used;
    for (const BspNode& n : t.nodes) used.push_back(n.plane);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    out << "planes used by nodes:\n";
    for (PlaneId id : used) out << "  plane " << id << " " << plane(t, id) << "\n";

    // Iterative so a deep tree cannot overflow the call stack; a node is expanded once,
    // so a shared node or a cycle in a malformed tree cannot loop.
    out << "tree:\n";
    std::vector<bool> expanded(t.nodes.size(), false);
    std::vector<std::pair<ChildRef, size_t>> stack{{t.root, 0}};
    while (!stack.empty()) {
        const auto [ref, depth] = stack.back();
        stack.pop_back();
        const std::string indent(2 * depth, ' ');
        if (isLeaf(ref)) {
            dumpLeaf(t, leafIndex(ref), indent, out);
            continue;
        }
        if (size_t(ref) >= t.nodes.size()) {
            out << indent << "node " << ref << " (out of range)\n";
            continue;
        }
        const BspNode& n = t.nodes[size_t(ref)];
        out << indent << "node " << ref << " plane " << n.plane << " " << plane(t, n.plane);
        if (expanded[size_t(ref)]) {
            out << " (already printed)\n";
            continue;
        }
        out << "\n";
        expanded[size_t(ref)] = true;
        stack.push_back({n.back, depth + 1});
        stack.push_back({n.front, depth + 1}); // popped first: front child printed first
    }

    out << "portals: " << t.portals.size() << "\n";
    for (size_t i = 0; i < t.portals.size(); ++i) {
        const Portal& p = t.portals[i];
        out << "  portal " << i << " plane " << p.plane << " front " << p.front << " back " << p.back << " open "
            << poseSet(t, p.poses, true);
        for (const Vec3& v : t.portals.vertices(p)) out << " " << vec(v);
        out << "\n";
    }
}

} // namespace shallot
