#pragma once
#include "compile/bsp_tree.h"
#include "light/level_light.h"
#include "portal/tree_pvs.h"
#include "world/brush.h"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shallot {

struct ObspMovers; // objects/obsp_movers.h

// The .obsp file: a compiled BspTree, versioned and checksummed.
//
// Layout (every field little-endian, fixed width; doubles are IEEE-754 binary64):
//   header, 96 bytes:
//     0  "OBSP"           4  version u32        8  flags u32 (kObspFlagBrushes, kObspFlagMovers,
//                                                 kObspFlagVisibility, kObspFlagLightmaps)
//     12 pose count u32   16 plane count u32    20 node count u32
//     24 leaf count u32   28 polygon count u32  32 total vertex count u64
//     40 root i32         44 bounds mins, maxs  6 x f64
//     92 CRC-32 of bytes 0..91
//   seven sections (six in version 1, which has no PORT; one more when flags has
//   kObspFlagBrushes, version 3 on, one more when it has kObspFlagMovers, version 6 on,
//   one more when it has kObspFlagVisibility, version 4 on, and one more, the last, when
//   it has kObspFlagLightmaps, version 5 on), in this order, each "tag u32, payload
//   length u64, payload, CRC-32 of tag + length + payload":
//     POSE  per pose: name length u32, name bytes, mins 3 x f64, maxs 3 x f64, colour u32
//     PLAN  the even planes only (normal 3 x f64, dist f64); planes[2k + 1] is rebuilt as
//           planes[2k].flipped(), so the pool's pair invariant holds by construction
//     NODE  per node: plane i32, front i32, back i32
//     SOLI  per leaf: solidity bits u64
//     LEAF  per leaf: interior point 3 x f64, clearance f64, volume f64, first polygon u32,
//           polygon count u32, depth u16, degenerate u8
//     POLY  per polygon: plane i32, pose u8, brush i32, vertex count u32, vertices 3 x f64
//     PORT  portal count u32, total portal vertex count u64, then per portal: plane i32,
//           front leaf i32, back leaf i32, poses u64, vertex count u32, vertices 3 x f64
//     BRSH  (optional) brush count u32, total plane count u64, then per brush: contents u8
//           (0 solid, 1 clip), poses it does not block u64 (bit p: poses[p]), plane count
//           u32, planes (normal 3 x f64, dist f64)
//     MOVR  (optional) the level's movers: its entities and each mover's own tree (see
//           objects/obsp_movers.h, where the payload is written and read)
//     PVIS  (optional) the potentially visible set of the leaves (portal/tree_pvs.h): pose
//           u32 (the sight pose it is for), flags u8 (1 full flow, 2 the level leaks),
//           average visible f64, largest visible u32, milliseconds f64, cluster count C
//           u32, cluster entry total u64; per leaf: cluster count u32, clusters u32 each;
//           per cluster: its row's byte length u32, then the row, ceil(C / 8) bytes of bits
//           (bit k of byte j: cluster 8j + k) with each run of zero bytes written as a zero
//           byte and the run's length (1 to 255), as Quake's visdata.
//     LITE  (optional) the level's lit faces and their lightmaps: see io/obsp_lightmaps.h.
//
// A damaged PVIS section (truncated, a checksum mismatch, forged counts or indices) does
// not cost the tree: the file reads without a PVS and says why in pvsError. Only the LITE
// section may follow it, and a damaged LITE section likewise costs only the lightmaps
// (lightingError); a damaged PVIS section costs the lightmaps after it too.
//
// The brushes section holds the world's blocking brushes (solid and clip, each valid in
// the tree's bounds: see buildBrushGeometry), so that boxes other than the compiled poses
// can be swept (query/box_trace.h) without the .map. A reader checks each brush as the
// compiler does and refuses the file when one is not valid.
//
// The movers section makes `shallot-cli query` and the runtime answer on the .obsp as on
// the .map it was compiled from (doors, plats, trains at their states, typed travel). A
// damaged movers section fails the whole file: answering without the movers would be
// answering a different level.
//
// A portal joins two different leaves, has at least 3 finite vertices, and its poses are
// exactly those in which both its leaves are empty (so never none). A version 1 file is
// still read: its portals are generated on loading (see portal_generation.h).
//
// Nodes are stored so that every node child has a larger index than its parent (pre-order
// satisfies this) and the root is node 0; that makes cycles impossible to express. The
// writer renumbers a tree that is not in that order (dropping unreachable nodes).
inline constexpr uint32_t kObspVersion = 6;
inline constexpr uint32_t kObspFlagBrushes = 1;    // header flag: a BRSH section follows PORT
inline constexpr uint32_t kObspFlagVisibility = 2; // header flag: a PVIS section follows
inline constexpr uint32_t kObspFlagLightmaps = 4;  // header flag: a LITE section ends the file
inline constexpr uint32_t kObspFlagMovers = 8;     // header flag: a MOVR section follows BRSH (version 6 on)
inline constexpr char kObspMagic[4] = {'O', 'B', 'S', 'P'};
inline constexpr size_t kObspMaxFileBytes = size_t(1) << 30; // default read limit: 1 GiB
inline constexpr uint32_t kObspMaxPoseName = 1024;
inline constexpr uint32_t kObspMaxBrushPlanes = 1024; // as a .map's kMaxBrushSides

// Writes the tree, and with `brushes` (the world it was compiled from) the brushes
// section: the brushes that block some box (not NonSolid) and are valid in tree.bounds,
// in order; the rest are left out, as the compile leaves them out. With `pvs` (computed
// for this tree: computeTreePvs) the PVIS section; with `lighting` the LITE section; with
// `movers` (compiled for this tree's poses: obspMoversOf) the MOVR section. A
// tree the format cannot represent (see obspWriteProblem) writes nothing and sets failbit
// on `out`.
void writeObsp(const BspTree& tree, std::ostream& out, const std::vector<Brush>* brushes = nullptr,
               const TreePvs* pvs = nullptr, const LevelLighting* lighting = nullptr,
               const ObspMovers* movers = nullptr);

// Why the tree (with `pvs`) cannot be written (bad indices, more than kMaxPoses poses,
// unpaired planes, non-finite numbers, a node cycle, a PVS of another tree, ...), or empty
// when it can.
std::string obspWriteProblem(const BspTree& tree, const TreePvs* pvs = nullptr);

// Writes path + ".tmp" and renames it over `path`, so a failed save leaves any old file
// intact. Returns an error message, or empty on success.
std::string saveObspFile(const BspTree& tree, const std::string& path, const std::vector<Brush>* brushes = nullptr,
                         const TreePvs* pvs = nullptr, const LevelLighting* lighting = nullptr,
                         const ObspMovers* movers = nullptr);

// Summary of a file that was read.
struct ObspInfo {
    uint32_t version = 0;
    size_t poses = 0, nodes = 0, leaves = 0, planes = 0, polygons = 0, portals = 0;
    size_t brushes = 0; // in the brushes section (0 without one)
    size_t movers = 0;  // in the movers section (0 without one)
    int depth = 0; // longest root-to-leaf path, in nodes
};

struct ObspReadResult {
    std::optional<BspTree> tree; // set on success
    std::string error;           // set on failure: "obsp: <what> at byte <offset>"
    ObspInfo info;               // valid on success
    // The brushes section, when the file has one: planes, contents and excludedPoses (by
    // name) of each stored brush, ready for BoxTraceWorld::build with the tree's bounds.
    std::optional<std::vector<Brush>> brushes;
    // The PVIS section, when the file has one that reads; when it has one that does not,
    // pvs is empty and pvsError says why ("obsp: ... section 'visibility' ..."), the rest
    // of the file being read as usual.
    std::optional<TreePvs> pvs;
    std::string pvsError;
    // The LITE section, when the file has one that reads; else lightingError says why.
    std::optional<LevelLighting> lighting;
    std::string lightingError;
    // The MOVR section, when the file has one (a damaged one fails the read).
    std::shared_ptr<const ObspMovers> movers;
};

// Reads and fully validates a file of at most maxBytes bytes. Hostile input yields an
// error, never a crash, an allocation out of proportion to the input, or a loop. A
// version 1 file gets its portals generated, or an error when its nodes do not form a
// tree the compiler could have built (see portalGenerationProblem).
ObspReadResult readObsp(std::istream& in, size_t maxBytes = kObspMaxFileBytes);
ObspReadResult readObspFile(const std::string& path, size_t maxBytes = kObspMaxFileBytes);
// The same for bytes already in memory (a buffer or a mapped file), without copying them.
ObspReadResult readObspBytes(std::string_view bytes, size_t maxBytes = kObspMaxFileBytes);
// A mover's tree inside a MOVR section: a whole image with no optional section (any flag
// is an error, so that images cannot nest).
ObspReadResult readObspPlainTree(std::string_view bytes);

// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zlib's crc32(): pass the
// previous result as `crc` to continue a running checksum.
uint32_t obspCrc32(const void* data, size_t size, uint32_t crc = 0);

} // namespace shallot
