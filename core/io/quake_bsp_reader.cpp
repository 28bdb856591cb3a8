#include "io/quake_bsp_reader.h"

#include "io/quake_bsp_lumps.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>

namespace shallot {

namespace {

using namespace bsp;

// The lumps this reader uses besides the planes and models, by their index in the header.
constexpr int kLumpVisibility = 4;
constexpr int kLumpNodes = 5;
constexpr int kLumpLeaves = 10;

// Node and leaf records differ by format: children int16 (BSP29) or int32, bounds int16
// (BSP29, 2PSB) or float (BSP2), face and mark-surface counts uint16 (BSP29) or uint32.
struct Layout {
    const char* name;
    size_t nodeBytes, leafBytes;
    bool wideChildren, floatBounds;
};
constexpr Layout kBsp29{"BSP29", 24, 28, false, false};
constexpr Layout kBsp2psb{"2PSB", 32, 32, true, false};
constexpr Layout kBsp2{"BSP2", 44, 44, true, true};


Vec3 vec3f(const uint8_t* p) { return {double(f32(p)), double(f32(p + 4)), double(f32(p + 8))}; }
Vec3 vec3s(const uint8_t* p) { return {double(i16(p)), double(i16(p + 2)), double(i16(p + 4))}; }


} // namespace

struct QuakeBspDecoder : LumpReader {
    bool child(int32_t c, const QuakeBsp& bsp, size_t node) {
        if (c >= 0 ? size_t(c) < bsp.nodes.size() : size_t(-int64_t(c) - 1) < bsp.leaves.size()) return true;
        return fail("node " + std::to_string(node) + " has child " + std::to_string(c) + " out of range");
    }

    // Every node reached from the head at most once: a tree, so findLeaf ends.
    bool checkTree(const QuakeBsp& bsp) {
        std::vector<bool> seen(bsp.nodes.size(), false);
        std::vector<int32_t> stack{bsp.headNode};
        while (!stack.empty()) {
            const int32_t n = stack.back();
            stack.pop_back();
            if (n < 0) continue;
            if (seen[size_t(n)]) return fail("node " + std::to_string(n) + " is reached twice from the head node");
            seen[size_t(n)] = true;
            stack.push_back(bsp.nodes[size_t(n)].front);
            stack.push_back(bsp.nodes[size_t(n)].back);
        }
        return true;
    }

    // Decompresses leaf `leaf`'s row from visdata[visofs]: a zero byte and a count stand
    // for that many zero bytes. A run past the row's end or the data's end is an error.
    bool decompressRow(QuakeBsp& bsp, int32_t leaf) {
        const size_t rowBytes = bsp.rowBytes_;
        uint8_t* out = bsp.rows_.data() + size_t(leaf - 1) * rowBytes;
        size_t in = size_t(bsp.leaves[size_t(leaf)].visofs), written = 0;
        const std::vector<uint8_t>& vis = bsp.visdata;
        while (written < rowBytes) {
            if (in >= vis.size()) return fail("visdata of leaf " + std::to_string(leaf) + " runs past the end of the lump");
            const uint8_t b = vis[in++];
            if (b != 0) {
                out[written++] = b;
                continue;
            }
            if (in >= vis.size()) return fail("visdata of leaf " + std::to_string(leaf) + " ends inside a run of zeros");
            const size_t run = vis[in++];
            if (run == 0 || run > rowBytes - written)
                return fail("visdata of leaf " + std::to_string(leaf) + " has a run of " + std::to_string(run) +
                            " zero bytes where " + std::to_string(rowBytes - written) + " are left");
            written += run; // rows_ starts zeroed
        }
        return true;
    }

    bool decode(QuakeBsp& bsp) {
        if (file.size() < kHeaderBytes)
            return fail("file of " + std::to_string(file.size()) + " bytes is shorter than a header (" +
                        std::to_string(kHeaderBytes) + ")");
        const Layout* layout = nullptr;
        if (std::memcmp(file.data(), "BSP2", 4) == 0) layout = &kBsp2;
        else if (std::memcmp(file.data(), "2PSB", 4) == 0) layout = &kBsp2psb;
        else if (i32(file.data()) == kBsp29Version) layout = &kBsp29;
        else return fail("not a Quake level (version " + std::to_string(i32(file.data())) + "; BSP29, BSP2 or 2PSB expected)");
        bsp.format = layout->name;

        Lump planes, nodes, leaves, models, vis;
        if (!lump(kLumpPlanes, "planes", kPlaneBytes, &planes) || !lump(kLumpNodes, "nodes", layout->nodeBytes, &nodes) ||
            !lump(kLumpLeaves, "leaves", layout->leafBytes, &leaves) || !lump(kLumpModels, "models", kModelBytes, &models) ||
            !lump(kLumpVisibility, "visibility", 0, &vis))
            return false;
        if (models.bytes == 0) return fail("no models (the world model is the first)");
        if (leaves.bytes == 0) return fail("no leaves");

        bsp.planes.resize(planes.bytes / kPlaneBytes);
        for (size_t i = 0; i < bsp.planes.size(); ++i) {
            const uint8_t* p = planes.data + i * kPlaneBytes;
            bsp.planes[i] = {vec3f(p), f32(p + 12)};
            if (!bsp.planes[i].normal.allFinite() || !std::isfinite(bsp.planes[i].dist))
                return fail("plane " + std::to_string(i) + " is not finite");
        }
        bsp.leaves.resize(leaves.bytes / layout->leafBytes);
        for (size_t i = 0; i < bsp.leaves.size(); ++i) {
            const uint8_t* p = leaves.data + i * layout->leafBytes;
            QuakeBspLeaf& leaf = bsp.leaves[i];
            leaf.contents = i32(p);
            leaf.visofs = i32(p + 4);
            leaf.mins = layout->floatBounds ? vec3f(p + 8) : vec3s(p + 8);
            leaf.maxs = layout->floatBounds ? vec3f(p + 20) : vec3s(p + 14);
        }
        bsp.nodes.resize(nodes.bytes / layout->nodeBytes);
        for (size_t i = 0; i < bsp.nodes.size(); ++i) {
            const uint8_t* p = nodes.data + i * layout->nodeBytes;
            QuakeBspNode& node = bsp.nodes[i];
            node.plane = i32(p);
            node.front = layout->wideChildren ? i32(p + 4) : i16(p + 4);
            node.back = layout->wideChildren ? i32(p + 8) : i16(p + 6);
            if (node.plane < 0 || size_t(node.plane) >= bsp.planes.size())
                return fail("node " + std::to_string(i) + " has plane " + std::to_string(node.plane) + " out of range");
            if (!child(node.front, bsp, i) || !child(node.back, bsp, i)) return false;
        }

        const uint8_t* world = models.data;
        bsp.worldMins = vec3f(world);
        bsp.worldMaxs = vec3f(world + 12);
        bsp.headNode = i32(world + 36);
        bsp.visLeafs = i32(world + 52);
        if (bsp.headNode < 0 || size_t(bsp.headNode) >= bsp.nodes.size())
            return fail("the world model's head node " + std::to_string(bsp.headNode) + " is out of range (" +
                        std::to_string(bsp.nodes.size()) + " nodes)");
        if (bsp.visLeafs < 0 || size_t(bsp.visLeafs) >= bsp.leaves.size())
            return fail("the world model has " + std::to_string(bsp.visLeafs) + " vis leaves of " +
                        std::to_string(bsp.leaves.size()) + " leaves (leaf 0 excluded)");
        if (!checkTree(bsp)) return false;

        bsp.visdata.assign(vis.data, vis.data + vis.bytes);
        if (bsp.visdata.empty() || bsp.visLeafs == 0) return true; // no PVS: everything sees everything
        bsp.rowBytes_ = (size_t(bsp.visLeafs) + 7) / 8;
        bsp.rows_.assign(size_t(bsp.visLeafs) * bsp.rowBytes_, 0);
        bsp.hasRow_.assign(size_t(bsp.visLeafs), false);
        for (int32_t leaf = 1; leaf <= bsp.visLeafs; ++leaf) {
            const int32_t visofs = bsp.leaves[size_t(leaf)].visofs;
            if (visofs < 0) continue;
            if (size_t(visofs) >= bsp.visdata.size())
                return fail("leaf " + std::to_string(leaf) + " has visdata offset " + std::to_string(visofs) +
                            " past the lump's " + std::to_string(bsp.visdata.size()) + " bytes");
            if (!decompressRow(bsp, leaf)) return false;
            bsp.hasRow_[size_t(leaf - 1)] = true;
        }
        return true;
    }
};

int32_t QuakeBsp::findLeaf(const Vec3& p) const {
    int32_t n = headNode;
    while (n >= 0) {
        const QuakeBspNode& node = nodes[size_t(n)];
        const QuakeBspPlane& plane = planes[size_t(node.plane)];
        n = plane.normal.dot(p) - plane.dist >= 0.0 ? node.front : node.back;
    }
    return -(n + 1);
}

bool QuakeBsp::visible(int32_t from, int32_t to) const {
    if (rows_.empty() || !hasRow_[size_t(from - 1)]) return true;
    const size_t bit = size_t(to - 1);
    return (rows_[size_t(from - 1) * rowBytes_ + bit / 8] >> (bit % 8)) & 1u;
}

size_t QuakeBsp::countVisible(int32_t from) const {
    size_t n = 0;
    for (int32_t to = 1; to <= visLeafs; ++to) n += visible(from, to);
    return n;
}

QuakeBspReadResult readQuakeBsp(std::span<const uint8_t> bytes) {
    QuakeBspReadResult result;
    QuakeBspDecoder decoder{{bytes, {}}};
    QuakeBsp bsp;
    if (decoder.decode(bsp)) result.bsp = std::move(bsp);
    else result.error = decoder.error;
    return result;
}

QuakeBspReadResult readQuakeBspFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return {std::nullopt, "bsp: cannot open " + path};
    const std::streamoff size = in.tellg();
    if (size < 0 || uint64_t(size) > kMaxQuakeBspBytes)
        return {std::nullopt, "bsp: " + path + " is larger than " + std::to_string(kMaxQuakeBspBytes >> 20) + " MB"};
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) return {std::nullopt, "bsp: cannot read " + path};
    QuakeBspReadResult result = readQuakeBsp(bytes);
    if (!result.bsp) result.error += " (" + path + ")";
    return result;
}

} // namespace shallot
