#include "io/obsp_format.h"

#include "compile/bsp_builder.h"
#include "io/obsp_lightmaps.h"
#include "objects/obsp_movers.h"
#include "portal/portal_generation.h"
#include "world/brush_geometry.h"
#include "world/world.h"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <ostream>

namespace shallot {

namespace {

constexpr std::array<uint32_t, 256> makeCrcTable() {
    std::array<uint32_t, 256> table{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    return table;
}
constexpr std::array<uint32_t, 256> kCrcTable = makeCrcTable();

// On-disk sizes.
constexpr size_t kHeaderBytes = 96;
constexpr size_t kHeaderCrcAt = 92;
constexpr size_t kSectionOverhead = 4 + 8 + 4; // tag, length, CRC
constexpr size_t kPoseMinBytes = 4 + 48 + 4;
constexpr size_t kPlaneBytes = 32;
constexpr size_t kNodeBytes = 12;
constexpr size_t kSolidBytes = 8;
constexpr size_t kLeafBytes = 24 + 8 + 8 + 4 + 4 + 2 + 1;
constexpr size_t kPolygonMinBytes = 4 + 1 + 4 + 4;
constexpr size_t kVertexBytes = 24;
constexpr size_t kPortalHeadBytes = 4 + 8;
constexpr size_t kPortalMinBytes = 4 + 4 + 4 + 8 + 4;
constexpr size_t kBrushHeadBytes = 4 + 8;
constexpr size_t kBrushMinBytes = 1 + 8 + 4;
constexpr uint64_t kVariableLength = UINT64_MAX;

enum SectionIndex {
    kPoses, kPlanes, kNodes, kSolid, kLeaves, kPolygons, kPortals, kBrushes, kMovers, kVisibility, kLightmaps,
    kSectionCount
};
struct SectionDesc {
    char tag[4];
    const char* name;
};
constexpr SectionDesc kSections[kSectionCount] = {
    {{'P', 'O', 'S', 'E'}, "poses"}, {{'P', 'L', 'A', 'N'}, "planes"},
    {{'N', 'O', 'D', 'E'}, "nodes"}, {{'S', 'O', 'L', 'I'}, "leafSolid"},
    {{'L', 'E', 'A', 'F'}, "leaves"}, {{'P', 'O', 'L', 'Y'}, "polygons"},
    {{'P', 'O', 'R', 'T'}, "portals"}, {{'B', 'R', 'S', 'H'}, "brushes"}, {{'M', 'O', 'V', 'R'}, "movers"},
    {{'P', 'V', 'I', 'S'}, "visibility"}, {{'L', 'I', 'T', 'E'}, "lightmaps"}};

// The sections the tree needs (PVIS, which may be damaged without costing the tree, is not
// counted: a file cut short inside it still reads).
size_t sectionCount(uint32_t version, uint32_t flags) {
    return (version >= 2 ? kPortals + 1 : kPortals) + ((flags & kObspFlagBrushes) ? 1 : 0) +
           ((flags & kObspFlagMovers) ? 1 : 0);
}

// The PVIS section's flags.
constexpr uint8_t kPvsFullFlow = 1, kPvsLeaks = 2;
// Quake's run-length coding of a row of visibility bits: a zero byte, then how many zero
// bytes it stands for, at most this many.
constexpr size_t kMaxZeroRun = 255;

size_t pvsRowBytes(size_t clusters) { return (clusters + 7) / 8; }

// The fewest bytes a row of `rowBytes` bytes codes to (each coded byte stands for at most
// kMaxZeroRun / 2 row bytes on average, a lone literal for one): a lower bound checked
// before anything is allocated for the rows.
uint64_t minCodedRowBytes(uint64_t rowBytes) {
    return rowBytes == 0 ? 0 : std::max<uint64_t>(1, (2 * (rowBytes - 1) + kMaxZeroRun - 1) / kMaxZeroRun);
}

// ---- checks shared by the writer and the reader: a message, or nullptr when fine ----

const char* poseProblem(const Pose& p) {
    if (p.name.size() > kObspMaxPoseName) return "pose name too long";
    if (!p.isValid()) return "invalid pose (empty name, non-finite or inverted box)";
    // The file stores boxes; a tree holds a round pose as its two boxes (world/round_pose_boxes.h).
    if (p.shape.isRound()) return "round pose (ellipsoid or capsule): .obsp stores box poses only";
    return nullptr;
}

// The compiler normalises every plane; distances, trace parameters and cells computed with a
// longer or shorter normal (1e300, or 0) overflow or divide by zero.
constexpr double kUnitNormalTolerance = 1e-6;

const char* planeProblem(const Plane& p) {
    if (!p.isFinite()) return "non-finite plane";
    if (!(std::abs(p.normal.norm() - 1.0) <= kUnitNormalTolerance)) return "plane normal is not of unit length";
    return nullptr;
}

// Requiring node children to follow their parent rules out cycles without a graph search.
const char* childProblem(size_t parent, ChildRef c, size_t nodes, size_t leaves) {
    if (isLeaf(c)) return size_t(leafIndex(c)) < leaves ? nullptr : "leaf reference out of range";
    if (size_t(c) >= nodes) return "node reference out of range";
    if (size_t(c) <= parent) return "node child does not follow its parent (nodes must be in pre-order)";
    return nullptr;
}

const char* nodeProblem(size_t i, const BspNode& n, size_t nodes, size_t planes, size_t leaves) {
    if (n.plane < 0 || size_t(n.plane) >= planes) return "node plane out of range";
    if (const char* e = childProblem(i, n.front, nodes, leaves)) return e;
    return childProblem(i, n.back, nodes, leaves);
}

const char* rootProblem(ChildRef root, size_t nodes, size_t leaves) {
    if (nodes > 0) return root == 0 ? nullptr : "root must be node 0";
    return isLeaf(root) && size_t(leafIndex(root)) < leaves ? nullptr : "root leaf out of range";
}

const char* solidProblem(uint64_t bits, size_t poses) {
    return poses < 64 && (bits >> poses) != 0 ? "solidity bit set for a pose that does not exist" : nullptr;
}

const char* leafProblem(const LeafInfo& l, size_t polygons) {
    if (!l.interiorPoint.allFinite() || !std::isfinite(l.clearance) || !std::isfinite(l.volume))
        return "non-finite leaf data";
    if (uint64_t(l.firstPolygon) + l.polygonCount > polygons) return "leaf polygon range out of range";
    return nullptr;
}

const char* polygonProblem(const LeafPolygon& p, std::span<const Vec3> vertices, size_t planes, size_t poses) {
    if (p.plane < 0 || size_t(p.plane) >= planes) return "polygon plane out of range";
    if (p.pose >= poses) return "polygon pose out of range";
    for (const Vec3& v : vertices)
        if (!v.allFinite()) return "non-finite polygon vertex";
    return nullptr;
}

// Needs t's planes, leaves and solidity in place.
const char* portalProblem(const Portal& p, std::span<const Vec3> vertices, const BspTree& t) {
    if (p.plane < 0 || size_t(p.plane) >= t.planes.size()) return "portal plane out of range";
    if (p.front < 0 || size_t(p.front) >= t.leaves.size() || p.back < 0 || size_t(p.back) >= t.leaves.size())
        return "portal leaf out of range";
    if (p.front == p.back) return "portal joins a leaf to itself";
    if (p.poses != bothEmptyPoses(t, p.front, p.back))
        return "portal poses differ from the poses in which both leaves are empty";
    if (vertices.size() < 3) return "portal has fewer than 3 vertices";
    for (const Vec3& v : vertices)
        if (!v.allFinite()) return "non-finite portal vertex";
    return nullptr;
}

// A stored brush: a solid or clip brush of planes the compiler accepts (buildBrushGeometry
// in `bounds`), blocking or not each of `poses` poses.
const char* brushProblem(BrushContents contents, uint64_t excluded, const std::vector<Plane>& planes, size_t poses,
                         const Aabb& bounds) {
    if (contents != BrushContents::Solid && contents != BrushContents::Clip) return "brush contents is not solid or clip";
    if (poses < 64 && (excluded >> poses) != 0) return "brush excludes a pose that does not exist";
    if (planes.size() < 4 || planes.size() > kObspMaxBrushPlanes) return "brush plane count out of range";
    for (const Plane& p : planes)
        if (const char* e = planeProblem(p)) return e;
    if (!buildBrushGeometry(Brush::fromPlanes(planes), bounds).geometry) return "brush is not valid (see buildBrushGeometry)";
    return nullptr;
}

std::vector<Plane> brushPlanes(const Brush& b) {
    std::vector<Plane> planes;
    planes.reserve(b.sides.size());
    for (const BrushSide& side : b.sides) planes.push_back(side.plane);
    return planes;
}

// Bit p set when the brush does not block poses[p] (blocks() in world/world.h: excluded
// by name, or no contents in the pose's blocking set).
uint64_t excludedMask(const Brush& b, const std::vector<Pose>& poses) {
    uint64_t mask = 0;
    for (size_t p = 0; p < poses.size() && p < 64; ++p)
        if (!blocks(b, poses[p])) mask |= uint64_t(1) << p;
    return mask;
}

// The contents a brush is stored with. The file keeps Solid or Clip and a mask of poses
// not blocked, which says exactly what blocks each stored pose; Solid when the brush
// blocks a point (default set or a point pose), else Clip (the rule for boxes no pose has).
BrushContents storedContents(const Brush& b, const std::vector<Pose>& poses) {
    if (intersects(b.contents, defaultBlocking(true))) return BrushContents::Solid;
    for (const Pose& pose : poses)
        if (pose.isPoint() && blocks(b, pose)) return BrushContents::Solid;
    return BrushContents::Clip;
}

// Finite, or exactly the default (empty, infinite) box.
bool boundsOk(const Aabb& b) {
    const Aabb empty;
    return (b.mins.allFinite() && b.maxs.allFinite()) || (b.mins == empty.mins && b.maxs == empty.maxs);
}

std::string elementProblem(const char* kind, size_t index, const char* problem) {
    return std::string(kind) + " " + std::to_string(index) + ": " + problem;
}

// ---- writing ----

class Bytes {
public:
    std::string s;
    void u8(uint8_t v) { s.push_back(char(v)); }
    void u16(uint16_t v) { put(v, 2); }
    void u32(uint32_t v) { put(v, 4); }
    void u64(uint64_t v) { put(v, 8); }
    void i32(int32_t v) { u32(uint32_t(v)); }
    void f64(double d) { u64(std::bit_cast<uint64_t>(d)); }
    void vec(const Vec3& v) {
        f64(v.x());
        f64(v.y());
        f64(v.z());
    }

private:
    void put(uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) s.push_back(char((v >> (8 * i)) & 0xff));
    }
};

// The tree's nodes in stored order (see obsp_format.h), copied only when renumbered.
struct StoredNodes {
    std::vector<BspNode> renumbered;
    const std::vector<BspNode>* nodes = nullptr;
    ChildRef root = leafRef(0);
};

bool inStoredOrder(const std::vector<BspNode>& nodes, ChildRef root) {
    if (nodes.empty()) return isLeaf(root);
    if (root != 0) return false;
    for (size_t i = 0; i < nodes.size(); ++i)
        for (ChildRef c : {nodes[i].front, nodes[i].back})
            if (!isLeaf(c) && (size_t(c) <= i || size_t(c) >= nodes.size())) return false;
    return true;
}

// Renumbers the nodes reachable from the root into reverse post-order, visiting the back
// child first: for a tree that is exactly pre-order (front subtree first), and for a DAG
// still an order in which every child follows its parents.
std::string renumberNodes(const BspTree& t, StoredNodes& out) {
    out.nodes = &out.renumbered;
    out.root = t.root;
    if (isLeaf(t.root)) return {};
    const size_t n = t.nodes.size();
    if (size_t(t.root) >= n) return "root node out of range";
    enum : uint8_t { kUnseen, kOnStack, kDone };
    std::vector<uint8_t> state(n, kUnseen);
    std::vector<int32_t> postOrder;
    struct Frame {
        int32_t node;
        int stage; // 0: visit back next, 1: visit front next, 2: finished
    };
    std::vector<Frame> stack{{t.root, 0}};
    state[size_t(t.root)] = kOnStack;
    while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.stage == 2) {
            state[size_t(f.node)] = kDone;
            postOrder.push_back(f.node);
            stack.pop_back();
            continue;
        }
        const ChildRef c = f.stage == 0 ? t.nodes[size_t(f.node)].back : t.nodes[size_t(f.node)].front;
        ++f.stage;
        if (isLeaf(c)) continue;
        if (size_t(c) >= n) return elementProblem("node", size_t(f.node), "node reference out of range");
        if (state[size_t(c)] == kOnStack) return elementProblem("node", size_t(f.node), "child forms a cycle");
        if (state[size_t(c)] == kUnseen) {
            state[size_t(c)] = kOnStack;
            stack.push_back({c, 0}); // invalidates f
        }
    }
    std::vector<int32_t> newIndex(n, -1);
    for (size_t k = 0; k < postOrder.size(); ++k) newIndex[size_t(postOrder[postOrder.size() - 1 - k])] = int32_t(k);
    auto remap = [&](ChildRef c) { return isLeaf(c) ? c : newIndex[size_t(c)]; };
    out.renumbered.resize(postOrder.size());
    for (size_t k = 0; k < postOrder.size(); ++k) {
        const BspNode& old = t.nodes[size_t(postOrder[postOrder.size() - 1 - k])];
        out.renumbered[k] = {old.plane, remap(old.front), remap(old.back)};
    }
    out.root = 0;
    return {};
}

std::string prepare(const BspTree& t, StoredNodes& stored, uint64_t& vertexTotal, uint64_t& portalVertexTotal) {
    if (t.poses.size() > size_t(kMaxPoses)) return "more than " + std::to_string(kMaxPoses) + " poses";
    if (t.planes.size() % 2 != 0) return "odd plane count (planes come in pairs)";
    if (t.planes.size() > INT32_MAX || t.nodes.size() > INT32_MAX || t.leaves.size() > INT32_MAX ||
        t.polygons.size() > UINT32_MAX || t.portals.size() > UINT32_MAX)
        return "too many elements";
    if (t.leafSolid.size() != t.leaves.size()) return "leafSolid and leaves differ in size";
    if (t.leaves.empty()) return "the tree has no leaves";
    if (!boundsOk(t.bounds)) return "non-finite bounds";
    for (size_t i = 0; i < t.poses.size(); ++i)
        if (const char* e = poseProblem(t.poses[i])) return elementProblem("pose", i, e);
    for (size_t i = 0; i < t.planes.size(); i += 2) {
        if (const char* e = planeProblem(t.planes[i])) return elementProblem("plane", i, e);
        const Plane f = t.planes[i].flipped();
        if (!(t.planes[i + 1].normal == f.normal && t.planes[i + 1].dist == f.dist))
            return elementProblem("plane", i + 1, "is not the flip of the plane before it");
    }
    if (inStoredOrder(t.nodes, t.root)) {
        stored.nodes = &t.nodes;
        stored.root = t.root;
    } else if (std::string e = renumberNodes(t, stored); !e.empty()) {
        return e;
    }
    const std::vector<BspNode>& nodes = *stored.nodes;
    if (const char* e = rootProblem(stored.root, nodes.size(), t.leaves.size())) return e;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (const char* e = nodeProblem(i, nodes[i], nodes.size(), t.planes.size(), t.leaves.size()))
            return elementProblem("node", i, e);
    for (size_t i = 0; i < t.leaves.size(); ++i) {
        if (const char* e = solidProblem(t.leafSolid[i], t.poses.size())) return elementProblem("leaf", i, e);
        if (const char* e = leafProblem(t.leaves[i], t.polygons.size())) return elementProblem("leaf", i, e);
    }
    vertexTotal = 0;
    for (size_t i = 0; i < t.polygons.size(); ++i) {
        const LeafPolygon& p = t.polygons[i];
        if (const char* e = polygonProblem(p, t.polygons.vertices(p), t.planes.size(), t.poses.size()))
            return elementProblem("polygon", i, e);
        vertexTotal += p.vertexCount;
    }
    portalVertexTotal = 0;
    for (size_t i = 0; i < t.portals.size(); ++i) {
        const Portal& p = t.portals[i];
        if (const char* e = portalProblem(p, t.portals.vertices(p), t)) return elementProblem("portal", i, e);
        portalVertexTotal += p.vertexCount;
    }
    return {};
}

// The brushes the BRSH section keeps (see writeObsp), with their planes and pose masks.
struct StoredBrush {
    BrushContents contents;
    uint64_t excluded;
    std::vector<Plane> planes;
};

std::vector<StoredBrush> storedBrushes(const BspTree& t, const std::vector<Brush>& brushes) {
    std::vector<StoredBrush> stored;
    for (const Brush& b : brushes) {
        const uint64_t excluded = excludedMask(b, t.poses);
        const uint64_t all = t.poses.size() >= 64 ? ~uint64_t(0) : (uint64_t(1) << t.poses.size()) - 1;
        if (excluded == all && !intersects(b.contents, defaultBlocking(false))) continue; // blocks nothing
        StoredBrush s{storedContents(b, t.poses), excluded, brushPlanes(b)};
        if (!brushProblem(s.contents, s.excluded, s.planes, t.poses.size(), t.bounds)) stored.push_back(std::move(s));
    }
    return stored;
}

void writeSection(std::ostream& out, SectionIndex index, const std::string& payload) {
    Bytes head;
    head.s.append(kSections[index].tag, 4);
    head.u64(payload.size());
    Bytes crc;
    crc.u32(obspCrc32(payload.data(), payload.size(), obspCrc32(head.s.data(), head.s.size())));
    out.write(head.s.data(), std::streamsize(head.s.size()));
    out.write(payload.data(), std::streamsize(payload.size()));
    out.write(crc.s.data(), std::streamsize(crc.s.size()));
}

// Row `cluster` of the clusters' PVS as bytes (bit k of byte j: cluster 8j + k), coded.
std::string codedPvsRow(const PotentiallyVisibleSet& pvs, int32_t cluster) {
    const size_t rowBytes = pvsRowBytes(pvs.leafCount());
    const uint64_t* words = pvs.row(cluster);
    std::string coded;
    for (size_t j = 0; j < rowBytes;) {
        const uint8_t byte = uint8_t(words[j / 8] >> (8 * (j % 8)));
        if (byte != 0) {
            coded.push_back(char(byte));
            ++j;
            continue;
        }
        size_t run = 0;
        while (j < rowBytes && run < kMaxZeroRun && uint8_t(words[j / 8] >> (8 * (j % 8))) == 0) ++j, ++run;
        coded.push_back(0);
        coded.push_back(char(uint8_t(run)));
    }
    return coded;
}

void writePvsSection(std::ostream& out, const TreePvs& pvs) {
    Bytes s;
    s.u32(uint32_t(pvs.pose));
    s.u8(uint8_t((pvs.figures.fullFlow ? kPvsFullFlow : 0) | (pvs.figures.leaks ? kPvsLeaks : 0)));
    s.f64(pvs.figures.averageVisible);
    s.u32(pvs.figures.largestVisible);
    s.f64(pvs.figures.ms);
    s.u32(uint32_t(pvs.clusterCount()));
    s.u64(pvs.clusters.size());
    for (size_t leaf = 0; leaf < pvs.leafCount(); ++leaf) {
        const std::span<const int32_t> of = pvs.clustersOf(int32_t(leaf));
        s.u32(uint32_t(of.size()));
        for (const int32_t c : of) s.i32(c);
    }
    for (size_t c = 0; c < pvs.clusterCount(); ++c) {
        const std::string row = codedPvsRow(pvs.clusterPvs, int32_t(c));
        s.u32(uint32_t(row.size()));
        s.s += row;
    }
    writeSection(out, kVisibility, s.s);
}

void writeBrushSection(std::ostream& out, const std::vector<StoredBrush>& keptBrushes) {
    Bytes s;
    uint64_t planeTotal = 0;
    for (const StoredBrush& b : keptBrushes) planeTotal += b.planes.size();
    s.u32(uint32_t(keptBrushes.size()));
    s.u64(planeTotal);
    for (const StoredBrush& b : keptBrushes) {
        s.u8(b.contents == BrushContents::Solid ? 0 : 1); // on disk: Solid 0, Clip 1
        s.u64(b.excluded);
        s.u32(uint32_t(b.planes.size()));
        for (const Plane& p : b.planes) {
            s.vec(p.normal);
            s.f64(p.dist);
        }
    }
    writeSection(out, kBrushes, s.s);
}

// Why the figures cannot be written, or nullptr.
const char* pvsFiguresProblem(const TreePvsFigures& f) {
    if (!std::isfinite(f.averageVisible) || f.averageVisible < 0 || !std::isfinite(f.ms) || f.ms < 0)
        return "PVS figures are not finite non-negative numbers";
    return nullptr;
}

std::string pvsWriteProblem(const BspTree& t, const TreePvs& pvs) {
    if (pvs.clusterCount() > UINT32_MAX || pvs.clusters.size() > UINT32_MAX) return "PVS too large";
    if (std::string e = treePvsProblem(pvs, t); !e.empty()) return e;
    if (const char* e = pvsFiguresProblem(pvs.figures)) return e;
    return {};
}

// ---- reading ----

struct ReadError {
    std::string message;
};

[[noreturn]] void fail(const std::string& what, size_t at) {
    throw ReadError{"obsp: " + what + " at byte " + std::to_string(at)};
}

void check(const char* problem, const char* kind, size_t index, size_t at) {
    if (problem) fail(elementProblem(kind, index, problem), at);
}

uint32_t u32At(std::string_view b, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(b[at + size_t(i)])) << (8 * i);
    return v;
}

// Reads little-endian fields from b[pos, end), failing rather than reading past end.
struct Cursor {
    std::string_view b;
    size_t pos;
    size_t end;
    std::string where; // for messages, e.g. "section 'nodes'"

    void need(uint64_t bytes) const {
        if (uint64_t(end - pos) < bytes) fail("unexpected end of " + where, pos);
    }
    uint64_t get(int bytes) {
        need(uint64_t(bytes));
        uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(b[pos + size_t(i)])) << (8 * i);
        pos += size_t(bytes);
        return v;
    }
    uint8_t u8() { return uint8_t(get(1)); }
    uint16_t u16() { return uint16_t(get(2)); }
    uint32_t u32() { return uint32_t(get(4)); }
    uint64_t u64() { return get(8); }
    int32_t i32() { return int32_t(u32()); }
    double f64() { return std::bit_cast<double>(u64()); }
    Vec3 vec() {
        const double x = f64(), y = f64(), z = f64();
        return {x, y, z};
    }
    std::string text(uint32_t bytes) {
        need(bytes);
        std::string s(b.data() + pos, bytes);
        pos += bytes;
        return s;
    }
};

struct Header {
    uint32_t version = 0;
    uint32_t flags = 0;
    uint32_t poses = 0, planes = 0, nodes = 0, leaves = 0, polygons = 0;
    uint64_t vertices = 0;
};

// plainTree: the image is a mover's tree inside a MOVR section, which has no optional sections.
Header readHeader(std::string_view b, BspTree& t, bool plainTree) {
    // (An empty view may have no data at all: memcmp must not see its null pointer.)
    const size_t magic = std::min(b.size(), size_t(4));
    if (magic > 0 && std::memcmp(b.data(), kObspMagic, magic) != 0) fail("not an obsp file (bad magic)", 0);
    if (b.size() < 4) fail("truncated header", b.size());
    Cursor c{b, 4, std::min(b.size(), kHeaderBytes), "header"};
    Header h;
    h.version = c.u32();
    if (h.version > kObspVersion)
        throw ReadError{"obsp: file version " + std::to_string(h.version) +
                        " is newer than this program supports (" + std::to_string(kObspVersion) + ")"};
    if (h.version == 0) fail("unsupported file version 0", 4);
    if (b.size() < kHeaderBytes) fail("truncated header", b.size());
    if (obspCrc32(b.data(), kHeaderCrcAt) != u32At(b, kHeaderCrcAt)) fail("checksum mismatch in section 'header'", kHeaderCrcAt);
    h.flags = c.u32();
    const uint32_t knownFlags = (h.version >= 3 ? kObspFlagBrushes : 0) | (h.version >= 4 ? kObspFlagVisibility : 0) |
                                (h.version >= 5 ? kObspFlagLightmaps : 0) | (h.version >= 6 ? kObspFlagMovers : 0);
    if ((h.flags & ~knownFlags) != 0) fail("unknown flags " + std::to_string(h.flags), 8);
    if (plainTree && h.flags != 0) fail("a mover's tree has optional sections (flags " + std::to_string(h.flags) + ")", 8);
    h.poses = c.u32();
    h.planes = c.u32();
    h.nodes = c.u32();
    h.leaves = c.u32();
    h.polygons = c.u32();
    h.vertices = c.u64();
    if (h.poses > uint32_t(kMaxPoses)) fail("pose count " + std::to_string(h.poses) + " exceeds " + std::to_string(kMaxPoses), 12);
    if (h.planes % 2 != 0 || h.planes > INT32_MAX) fail("bad plane count " + std::to_string(h.planes), 16);
    if (h.nodes > INT32_MAX) fail("bad node count " + std::to_string(h.nodes), 20);
    if (h.leaves == 0 || h.leaves > INT32_MAX) fail("bad leaf count " + std::to_string(h.leaves), 24);
    // Everything is checked against the file size before anything is allocated, so a
    // forged count cannot make the reader allocate much more than the file's own size.
    const uint64_t size = b.size();
    if (h.vertices > size / kVertexBytes) fail("vertex count " + std::to_string(h.vertices) + " is larger than the file", 32);
    const uint64_t minimum = kHeaderBytes + sectionCount(h.version, h.flags) * kSectionOverhead + uint64_t(h.poses) * kPoseMinBytes +
                             uint64_t(h.planes / 2) * kPlaneBytes + uint64_t(h.nodes) * kNodeBytes +
                             uint64_t(h.leaves) * (kSolidBytes + kLeafBytes) +
                             uint64_t(h.polygons) * kPolygonMinBytes + h.vertices * kVertexBytes +
                             (h.version >= 2 ? kPortalHeadBytes : 0) +
                             ((h.flags & kObspFlagBrushes) ? kBrushHeadBytes : 0);
    if (minimum > size)
        fail("header counts need at least " + std::to_string(minimum) + " bytes, larger than the file (" +
                 std::to_string(size) + ")",
             12);
    const size_t rootAt = c.pos;
    t.root = c.i32();
    if (const char* e = rootProblem(t.root, h.nodes, h.leaves)) fail(e, rootAt);
    const size_t boundsAt = c.pos;
    t.bounds.mins = c.vec();
    t.bounds.maxs = c.vec();
    if (!boundsOk(t.bounds)) fail("non-finite bounds", boundsAt);
    return h;
}

// Checks a section's frame and checksum, then lets `parse` read exactly its payload.
template <class Parse>
size_t readSection(std::string_view b, size_t pos, SectionIndex index, uint64_t fixedLength, Parse&& parse) {
    const std::string name = std::string("section '") + kSections[index].name + "'";
    if (b.size() - pos < 12) fail("missing " + name, pos);
    if (std::memcmp(b.data() + pos, kSections[index].tag, 4) != 0) fail("expected " + name, pos);
    Cursor frame{b, pos + 4, pos + 12, name};
    const uint64_t length = frame.u64();
    const uint64_t available = b.size() - pos - 12;
    if (available < 4 || length > available - 4) fail(name + " runs past the end of the file", pos + 4);
    if (fixedLength != kVariableLength && length != fixedLength)
        fail(name + " has length " + std::to_string(length) + ", expected " + std::to_string(fixedLength), pos + 4);
    const size_t crcAt = pos + 12 + size_t(length);
    if (obspCrc32(b.data() + pos, 12 + size_t(length)) != u32At(b, crcAt)) fail("checksum mismatch in " + name, crcAt);
    Cursor c{b, pos + 12, crcAt, name};
    parse(c);
    if (c.pos != crcAt) fail("unexpected bytes at the end of " + name, c.pos);
    return crcAt + 4;
}

// The PORT payload; every count is checked against the payload before reserving.
void readPortals(Cursor& c, BspTree& t) {
    const size_t headAt = c.pos;
    const uint32_t count = c.u32();
    uint64_t verticesLeft = c.u64();
    const uint64_t available = c.end - c.pos;
    if (verticesLeft > available / kVertexBytes ||
        uint64_t(count) * kPortalMinBytes > available - verticesLeft * kVertexBytes)
        fail("portal counts are larger than the section", headAt);
    t.portals.reserve(count, verticesLeft);
    std::vector<Vec3> polygon;
    for (size_t i = 0; i < count; ++i) {
        const size_t at = c.pos;
        Portal p;
        p.plane = c.i32();
        p.front = c.i32();
        p.back = c.i32();
        p.poses = c.u64();
        const uint32_t vertices = c.u32();
        if (vertices > verticesLeft) fail(elementProblem("portal", i, "more vertices than the section's total"), at);
        verticesLeft -= vertices;
        polygon.clear();
        for (uint32_t k = 0; k < vertices; ++k) polygon.push_back(c.vec());
        check(portalProblem(p, polygon, t), "portal", i, at);
        t.portals.add(p, polygon);
    }
    if (verticesLeft != 0) fail("fewer portal vertices than the section's total", c.pos);
}

// The BRSH payload; needs t's poses and bounds. Counts are checked before reserving.
std::vector<Brush> readBrushes(Cursor& c, const BspTree& t) {
    const size_t headAt = c.pos;
    const uint32_t count = c.u32();
    uint64_t planesLeft = c.u64();
    const uint64_t available = c.end - c.pos;
    if (planesLeft > available / kPlaneBytes || uint64_t(count) * kBrushMinBytes > available - planesLeft * kPlaneBytes)
        fail("brush counts are larger than the section", headAt);
    std::vector<Brush> brushes;
    brushes.reserve(count);
    std::vector<Plane> planes;
    for (size_t i = 0; i < count; ++i) {
        const size_t at = c.pos;
        const uint8_t contents = c.u8();
        const uint64_t excluded = c.u64();
        const uint32_t planeCount = c.u32();
        if (planeCount > planesLeft) fail(elementProblem("brush", i, "more planes than the section's total"), at);
        planesLeft -= planeCount;
        planes.clear();
        for (uint32_t k = 0; k < planeCount; ++k) {
            Plane p;
            p.normal = c.vec();
            p.dist = c.f64();
            planes.push_back(p);
        }
        // Solid is 0 and Clip 1 on disk; anything else is refused here.
        const BrushContents read = contents == 0 ? BrushContents::Solid
                                   : contents == 1 ? BrushContents::Clip
                                                   : BrushContents::NonSolid;
        check(brushProblem(read, excluded, planes, t.poses.size(), t.bounds), "brush", i, at);
        Brush b = Brush::fromPlanes(planes);
        b.contents = read;
        for (size_t p = 0; p < t.poses.size(); ++p)
            if ((excluded >> p) & 1u) b.excludedPoses.push_back(t.poses[p].name);
        // The mask must say what the contents say for every pose (a clip brush never blocks
        // a point pose): the writer stores exactly that, and a brush read must write back so.
        check(excludedMask(b, t.poses) == excluded ? nullptr : "brush pose mask disagrees with its contents", "brush", i, at);
        brushes.push_back(std::move(b));
    }
    if (planesLeft != 0) fail("fewer brush planes than the section's total", c.pos);
    return brushes;
}

// The PVIS payload; needs t complete. Counts are checked against the payload before
// reserving, so the rows (the largest allocation, ceil(C / 8) bytes each) take at most
// about 128 times the section's bytes.
TreePvs readPvs(Cursor& c, const BspTree& t) {
    const size_t headAt = c.pos;
    TreePvs pvs;
    const uint32_t pose = c.u32();
    if (pose >= t.poses.size()) fail("PVS pose out of range", headAt);
    pvs.pose = int(pose);
    const size_t flagsAt = c.pos;
    const uint8_t flags = c.u8();
    if ((flags & ~(kPvsFullFlow | kPvsLeaks)) != 0) fail("unknown PVS flags " + std::to_string(flags), flagsAt);
    pvs.figures.fullFlow = flags & kPvsFullFlow;
    pvs.figures.leaks = flags & kPvsLeaks;
    pvs.figures.averageVisible = c.f64();
    pvs.figures.largestVisible = c.u32();
    pvs.figures.ms = c.f64();
    if (const char* e = pvsFiguresProblem(pvs.figures)) fail(e, flagsAt);
    const size_t countsAt = c.pos;
    const uint32_t clusterCount = c.u32();
    uint64_t entriesLeft = c.u64();
    const uint64_t available = c.end - c.pos, leaves = t.leafCount(), rowBytes = pvsRowBytes(clusterCount);
    if (entriesLeft > available / 4 || leaves > (available - entriesLeft * 4) / 4 ||
        uint64_t(clusterCount) * (4 + minCodedRowBytes(rowBytes)) > available - entriesLeft * 4 - leaves * 4)
        fail("PVS counts are larger than the section", countsAt);
    pvs.firstCluster.reserve(leaves + 1);
    pvs.firstCluster.push_back(0);
    pvs.clusters.reserve(entriesLeft);
    for (size_t leaf = 0; leaf < leaves; ++leaf) {
        const size_t at = c.pos;
        const uint32_t count = c.u32();
        if (count > entriesLeft) fail(elementProblem("leaf", leaf, "more PVS clusters than the section's total"), at);
        entriesLeft -= count;
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t cluster = c.u32();
            if (cluster >= clusterCount) fail(elementProblem("leaf", leaf, "PVS cluster out of range"), at);
            pvs.clusters.push_back(int32_t(cluster));
        }
        pvs.firstCluster.push_back(uint32_t(pvs.clusters.size()));
    }
    if (entriesLeft != 0) fail("fewer PVS cluster entries than the section's total", c.pos);
    pvs.clusterPvs = PotentiallyVisibleSet(clusterCount);
    for (size_t cluster = 0; cluster < clusterCount; ++cluster) {
        const size_t at = c.pos;
        const uint32_t length = c.u32();
        c.need(length);
        uint64_t* words = pvs.clusterPvs.row(int32_t(cluster));
        size_t j = 0; // row bytes decoded
        for (size_t k = 0; k < length; ++k) {
            const uint8_t v = uint8_t(c.b[c.pos + k]);
            if (v != 0) {
                if (j >= rowBytes) fail(elementProblem("cluster", cluster, "PVS row longer than its clusters"), at);
                words[j / 8] |= uint64_t(v) << (8 * (j % 8));
                ++j;
                continue;
            }
            const size_t run = k + 1 < length ? uint8_t(c.b[c.pos + ++k]) : 0;
            if (run == 0 || run > rowBytes - j) fail(elementProblem("cluster", cluster, "bad run of zeros in the PVS row"), at);
            j += run;
        }
        if (j != rowBytes) fail(elementProblem("cluster", cluster, "PVS row shorter than its clusters"), at);
        for (size_t bit = clusterCount; bit < 8 * rowBytes; ++bit)
            if ((words[bit / 64] >> (bit % 64)) & 1u) fail(elementProblem("cluster", cluster, "PVS bit past the last cluster"), at);
        c.pos += length;
    }
    if (std::string e = treePvsProblem(pvs, t); !e.empty()) fail(e, headAt);
    return pvs;
}

ObspReadResult readFailure(std::string error) {
    ObspReadResult r;
    r.error = std::move(error);
    return r;
}

ObspReadResult parse(std::string_view b, bool plainTree) {
    BspTree t;
    const Header h = readHeader(b, t, plainTree);
    size_t pos = kHeaderBytes;

    pos = readSection(b, pos, kPoses, kVariableLength, [&](Cursor& c) {
        t.poses.reserve(h.poses);
        for (size_t i = 0; i < h.poses; ++i) {
            const size_t at = c.pos;
            Pose p;
            const uint32_t nameLength = c.u32();
            if (nameLength > kObspMaxPoseName) fail(elementProblem("pose", i, "pose name too long"), at);
            p.name = c.text(nameLength);
            p.mins = c.vec();
            p.maxs = c.vec();
            p.colour = c.u32();
            check(poseProblem(p), "pose", i, at);
            t.poses.push_back(std::move(p));
        }
    });
    pos = readSection(b, pos, kPlanes, uint64_t(h.planes / 2) * kPlaneBytes, [&](Cursor& c) {
        t.planes.reserve(h.planes);
        for (size_t i = 0; i < h.planes; i += 2) {
            const size_t at = c.pos;
            Plane p;
            p.normal = c.vec();
            p.dist = c.f64();
            check(planeProblem(p), "plane", i, at);
            t.planes.push_back(p);
            t.planes.push_back(p.flipped());
        }
    });
    const size_t nodesAt = pos;
    pos = readSection(b, pos, kNodes, uint64_t(h.nodes) * kNodeBytes, [&](Cursor& c) {
        t.nodes.reserve(h.nodes);
        for (size_t i = 0; i < h.nodes; ++i) {
            const size_t at = c.pos;
            BspNode n;
            n.plane = c.i32();
            n.front = c.i32();
            n.back = c.i32();
            check(nodeProblem(i, n, h.nodes, h.planes, h.leaves), "node", i, at);
            t.nodes.push_back(n);
        }
    });
    // Children follow parents, so one forward pass gives every node's depth. A tree deeper
    // than the compiler builds is refused: whatever walks it (cells, dumps, traces) may then
    // rely on kMaxTreeDepth.
    int depth = 0;
    {
        std::vector<int> nodeDepth(t.nodes.size(), 0);
        for (size_t i = 0; i < t.nodes.size(); ++i)
            for (ChildRef ch : {t.nodes[i].front, t.nodes[i].back}) {
                if (isLeaf(ch)) depth = std::max(depth, nodeDepth[i] + 1);
                else nodeDepth[size_t(ch)] = std::max(nodeDepth[size_t(ch)], nodeDepth[i] + 1);
            }
        if (depth > kMaxTreeDepth)
            fail("the tree is deeper than " + std::to_string(kMaxTreeDepth) + " levels (the compiler's limit)", nodesAt);
    }
    pos = readSection(b, pos, kSolid, uint64_t(h.leaves) * kSolidBytes, [&](Cursor& c) {
        t.leafSolid.reserve(h.leaves);
        for (size_t i = 0; i < h.leaves; ++i) {
            const size_t at = c.pos;
            t.leafSolid.push_back(c.u64());
            check(solidProblem(t.leafSolid.back(), h.poses), "leaf", i, at);
        }
    });
    pos = readSection(b, pos, kLeaves, uint64_t(h.leaves) * kLeafBytes, [&](Cursor& c) {
        t.leaves.reserve(h.leaves);
        for (size_t i = 0; i < h.leaves; ++i) {
            const size_t at = c.pos;
            LeafInfo l;
            l.interiorPoint = c.vec();
            l.clearance = c.f64();
            l.volume = c.f64();
            l.firstPolygon = c.u32();
            l.polygonCount = c.u32();
            l.depth = c.u16();
            const uint8_t degenerate = c.u8();
            if (degenerate > 1) fail(elementProblem("leaf", i, "bad degenerate flag"), at);
            l.degenerate = degenerate != 0;
            check(leafProblem(l, h.polygons), "leaf", i, at);
            t.leaves.push_back(l);
        }
    });
    pos = readSection(b, pos, kPolygons, kVariableLength, [&](Cursor& c) {
        t.polygons.reserve(h.polygons, h.vertices);
        uint64_t verticesLeft = h.vertices;
        std::vector<Vec3> polygon;
        for (size_t i = 0; i < h.polygons; ++i) {
            const size_t at = c.pos;
            LeafPolygon p;
            p.plane = c.i32();
            p.pose = c.u8();
            p.brush = c.i32();
            const uint32_t count = c.u32();
            if (count > verticesLeft) fail(elementProblem("polygon", i, "more vertices than the header's total"), at);
            verticesLeft -= count;
            c.need(uint64_t(count) * kVertexBytes);
            polygon.clear();
            for (uint32_t k = 0; k < count; ++k) polygon.push_back(c.vec());
            check(polygonProblem(p, polygon, h.planes, h.poses), "polygon", i, at);
            t.polygons.add(p, polygon);
        }
        if (verticesLeft != 0) fail("fewer vertices than the header's total", c.pos);
    });
    if (h.version >= 2) pos = readSection(b, pos, kPortals, kVariableLength, [&](Cursor& c) { readPortals(c, t); });
    std::optional<std::vector<Brush>> brushes;
    if (h.flags & kObspFlagBrushes)
        pos = readSection(b, pos, kBrushes, kVariableLength, [&](Cursor& c) { brushes = readBrushes(c, t); });
    std::shared_ptr<const ObspMovers> movers;
    if (h.flags & kObspFlagMovers)
        pos = readSection(b, pos, kMovers, kVariableLength, [&](Cursor& c) {
            std::string error;
            size_t at = 0;
            const size_t start = c.pos;
            std::optional<ObspMovers> read = readObspMoversPayload(c.b.substr(c.pos, c.end - c.pos), t, error, at);
            if (!read) fail("section 'movers': " + error, start + at);
            movers = std::make_shared<const ObspMovers>(std::move(*read));
            c.pos = c.end;
        });
    std::optional<TreePvs> pvs;
    std::string pvsError;
    if (h.flags & kObspFlagVisibility) {
        try {
            pos = readSection(b, pos, kVisibility, kVariableLength, [&](Cursor& c) { pvs = readPvs(c, t); });
        } catch (const ReadError& e) {
            // The last section: the tree before it is whole; only the PVS is lost.
            const std::string section = "section 'visibility'";
            pvsError = e.message.find(section) != std::string::npos ? e.message : "obsp: " + section + ": " + e.message.substr(6);
            pvs.reset();
            pos = b.size();
        }
    }
    std::optional<LevelLighting> lighting;
    std::string lightingError;
    if (h.flags & kObspFlagLightmaps) {
        if (!pvsError.empty()) {
            lightingError = "obsp: section 'lightmaps' not read: the section 'visibility' before it is damaged";
        } else {
            try {
                pos = readSection(b, pos, kLightmaps, kVariableLength, [&](Cursor& c) {
                    std::string error;
                    size_t at = 0;
                    const size_t start = c.pos;
                    lighting = readLightmapPayload(c.b.substr(c.pos, c.end - c.pos), error, at);
                    if (!lighting) fail("section 'lightmaps': " + error, start + at);
                    c.pos = c.end;
                });
            } catch (const ReadError& e) {
                // The last section: the tree (and PVS) before it are whole; only the lightmaps are lost.
                lightingError = e.message;
                lighting.reset();
                pos = b.size();
            }
        }
    }
    if (pos != b.size()) fail("trailing bytes after the last section", pos);
    if (h.version < 2) {
        if (const std::string e = portalGenerationProblem(t); !e.empty())
            fail("version 1 file whose portals cannot be generated: " + e, nodesAt);
        t.portals = generatePortals(t);
    }

    ObspReadResult r;
    r.info = {h.version,       t.poses.size(),    t.nodes.size(),   t.leaves.size(),
              t.planes.size(), t.polygons.size(), t.portals.size(), brushes ? brushes->size() : 0,
              movers ? movers->level.objects.size() : 0, depth};
    r.tree = std::move(t);
    r.brushes = std::move(brushes);
    r.pvs = std::move(pvs);
    r.pvsError = std::move(pvsError);
    r.lighting = std::move(lighting);
    r.lightingError = std::move(lightingError);
    r.movers = std::move(movers);
    return r;
}

} // namespace

uint32_t obspCrc32(const void* data, size_t size, uint32_t crc) {
    const auto* p = static_cast<const uint8_t*>(data);
    crc = ~crc;
    for (size_t i = 0; i < size; ++i) crc = kCrcTable[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

std::string obspWriteProblem(const BspTree& tree, const TreePvs* pvs) {
    StoredNodes stored;
    uint64_t vertices = 0, portalVertices = 0;
    if (std::string e = prepare(tree, stored, vertices, portalVertices); !e.empty()) return e;
    return pvs ? pvsWriteProblem(tree, *pvs) : std::string();
}

void writeObsp(const BspTree& t, std::ostream& out, const std::vector<Brush>* brushes, const TreePvs* pvs,
               const LevelLighting* lighting, const ObspMovers* movers) {
    StoredNodes stored;
    uint64_t vertexTotal = 0, portalVertexTotal = 0;
    if (!prepare(t, stored, vertexTotal, portalVertexTotal).empty() || (pvs && !pvsWriteProblem(t, *pvs).empty())) {
        out.setstate(std::ios::failbit);
        return;
    }
    const std::vector<BspNode>& nodes = *stored.nodes;
    const std::vector<StoredBrush> keptBrushes = brushes ? storedBrushes(t, *brushes) : std::vector<StoredBrush>{};

    Bytes h;
    h.s.append(kObspMagic, 4);
    h.u32(kObspVersion);
    h.u32((brushes ? kObspFlagBrushes : 0) | (pvs ? kObspFlagVisibility : 0) | (lighting ? kObspFlagLightmaps : 0) |
          (movers ? kObspFlagMovers : 0));
    h.u32(uint32_t(t.poses.size()));
    h.u32(uint32_t(t.planes.size()));
    h.u32(uint32_t(nodes.size()));
    h.u32(uint32_t(t.leaves.size()));
    h.u32(uint32_t(t.polygons.size()));
    h.u64(vertexTotal);
    h.i32(stored.root);
    h.vec(t.bounds.mins);
    h.vec(t.bounds.maxs);
    h.u32(obspCrc32(h.s.data(), h.s.size()));
    out.write(h.s.data(), std::streamsize(h.s.size()));

    Bytes s;
    for (const Pose& p : t.poses) {
        s.u32(uint32_t(p.name.size()));
        s.s += p.name;
        s.vec(p.mins);
        s.vec(p.maxs);
        s.u32(p.colour);
    }
    writeSection(out, kPoses, s.s);

    s.s.clear();
    for (size_t i = 0; i < t.planes.size(); i += 2) {
        s.vec(t.planes[i].normal);
        s.f64(t.planes[i].dist);
    }
    writeSection(out, kPlanes, s.s);

    s.s.clear();
    for (const BspNode& n : nodes) {
        s.i32(n.plane);
        s.i32(n.front);
        s.i32(n.back);
    }
    writeSection(out, kNodes, s.s);

    s.s.clear();
    for (uint64_t bits : t.leafSolid) s.u64(bits);
    writeSection(out, kSolid, s.s);

    s.s.clear();
    for (const LeafInfo& l : t.leaves) {
        s.vec(l.interiorPoint);
        s.f64(l.clearance);
        s.f64(l.volume);
        s.u32(l.firstPolygon);
        s.u32(l.polygonCount);
        s.u16(l.depth);
        s.u8(l.degenerate ? 1 : 0);
    }
    writeSection(out, kLeaves, s.s);

    s.s.clear();
    for (const LeafPolygon& p : t.polygons) {
        s.i32(p.plane);
        s.u8(p.pose);
        s.i32(p.brush);
        s.u32(p.vertexCount);
        for (const Vec3& v : t.polygons.vertices(p)) s.vec(v);
    }
    writeSection(out, kPolygons, s.s);

    s.s.clear();
    s.u32(uint32_t(t.portals.size()));
    s.u64(portalVertexTotal);
    for (const Portal& p : t.portals) {
        s.i32(p.plane);
        s.i32(p.front);
        s.i32(p.back);
        s.u64(p.poses);
        s.u32(p.vertexCount);
        for (const Vec3& v : t.portals.vertices(p)) s.vec(v);
    }
    writeSection(out, kPortals, s.s);
    if (brushes) writeBrushSection(out, keptBrushes);
    if (movers) writeSection(out, kMovers, obspMoversPayload(*movers));
    if (pvs) writePvsSection(out, *pvs);
    if (lighting) writeSection(out, kLightmaps, lightmapPayload(*lighting));
}

std::string saveObspFile(const BspTree& tree, const std::string& path, const std::vector<Brush>* brushes,
                         const TreePvs* pvs, const LevelLighting* lighting, const ObspMovers* movers) {
    if (std::string problem = obspWriteProblem(tree, pvs); !problem.empty()) return "obsp: cannot write: " + problem;
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return "obsp: cannot open '" + tmp + "' for writing";
        writeObsp(tree, out, brushes, pvs, lighting, movers);
        out.close();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(tmp, ignored);
            return "obsp: failed writing '" + tmp + "'";
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        return "obsp: cannot replace '" + path + "': " + ec.message();
    }
    return {};
}

ObspReadResult readObsp(std::istream& in, size_t maxBytes) {
    // Read in chunks so the buffer grows with the actual input, never to maxBytes up front.
    std::string bytes;
    char chunk[1 << 16];
    while (in) {
        in.read(chunk, sizeof chunk);
        const size_t got = size_t(in.gcount());
        if (got > maxBytes - bytes.size())
            return readFailure("obsp: file is larger than the limit of " + std::to_string(maxBytes) +
                                      " bytes at byte " + std::to_string(maxBytes));
        bytes.append(chunk, got);
        // Not an .obsp at all (a map, a zip, random bytes): say so without reading the rest.
        if (std::memcmp(bytes.data(), kObspMagic, std::min(bytes.size(), size_t(4))) != 0)
            return readFailure("obsp: not an obsp file (bad magic) at byte 0");
    }
    if (in.bad()) return readFailure("obsp: read error at byte " + std::to_string(bytes.size()));
    return readObspBytes(bytes, maxBytes);
}

ObspReadResult readObspBytes(std::string_view bytes, size_t maxBytes) {
    if (bytes.size() > maxBytes)
        return readFailure("obsp: file is larger than the limit of " + std::to_string(maxBytes) + " bytes (" +
                                      std::to_string(bytes.size()) + " bytes)");
    try {
        return parse(bytes, false);
    } catch (const ReadError& e) {
        return readFailure(e.message);
    } catch (const std::bad_alloc&) {
        return readFailure("obsp: out of memory");
    }
}

ObspReadResult readObspPlainTree(std::string_view bytes) {
    try {
        return parse(bytes, true);
    } catch (const ReadError& e) {
        return readFailure(e.message);
    } catch (const std::bad_alloc&) {
        return readFailure("obsp: out of memory");
    }
}

ObspReadResult readObspFile(const std::string& path, size_t maxBytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return readFailure("obsp: cannot open '" + path + "'");
    // A regular file over the limit is refused before reading any of it (readObsp would
    // stop at the limit, but only after buffering maxBytes).
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
        const std::uintmax_t size = std::filesystem::file_size(path, ec);
        if (!ec && size > maxBytes)
            return readFailure("obsp: file is larger than the limit of " + std::to_string(maxBytes) + " bytes (" +
                                      std::to_string(size) + " bytes)");
    }
    return readObsp(in, maxBytes);
}

} // namespace shallot
