#pragma once
// A reader of Quake's compiled levels (.bsp), for what visibility needs only: the planes,
// the nodes and leaves of the world model's hull 0 (contents and visdata offset of each
// leaf), and the visdata, Quake's PVS (issue #39: Shallot's PVS against ericw-tools' vis;
// docs/visibility.md, "Against ericw-tools vis"). Written from the file format: BSP29
// (Quake), BSP2 and 2PSB (the larger-limit variants of ericw-tools and others).
//
// Leaf 0 is the solid leaf all solid space shares; leaves 1..visLeafs (the world model's
// "visleafs") have a row of the PVS, one bit per leaf 1..visLeafs (bit i is leaf i + 1),
// stored with every run of zero bytes written as a zero and the run's length.
#include "geometry/plane.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shallot {

// Quake's leaf contents (bspfile.h).
inline constexpr int32_t kQuakeContentsEmpty = -1;
inline constexpr int32_t kQuakeContentsSolid = -2;
inline constexpr int32_t kQuakeContentsSky = -6;

// Largest file readQuakeBspFile accepts (hostile input: never read a huge file whole).
inline constexpr std::size_t kMaxQuakeBspBytes = std::size_t(512) << 20;

struct QuakeBspPlane {
    Vec3 normal = Vec3::Zero();
    double dist = 0.0; // points p with normal . p >= dist are in front
};

// A child >= 0 is a node, < 0 the leaf -(child + 1).
struct QuakeBspNode {
    int32_t plane = 0;
    int32_t front = 0, back = 0;
};

struct QuakeBspLeaf {
    int32_t contents = kQuakeContentsSolid;
    int32_t visofs = -1;         // byte offset of its row in the visdata; -1: none
    Vec3 mins = Vec3::Zero(), maxs = Vec3::Zero();
};

class QuakeBsp {
public:
    std::string format;          // "BSP29", "BSP2" or "2PSB"
    std::vector<QuakeBspPlane> planes;
    std::vector<QuakeBspNode> nodes;
    std::vector<QuakeBspLeaf> leaves;
    int32_t headNode = 0;        // the world model's hull 0 root (a node)
    int32_t visLeafs = 0;        // the world model's leaves with a PVS row: 1..visLeafs
    Vec3 worldMins = Vec3::Zero(), worldMaxs = Vec3::Zero(); // the world model's box
    std::vector<uint8_t> visdata;

    // The leaf holding p (a point on a plane reads its front side, as Quake's engine).
    int32_t findLeaf(const Vec3& p) const;
    bool hasVisibility() const { return !rows_.empty(); }
    // Whether leaf `to` is in the PVS of leaf `from`: both in 1..visLeafs. A leaf without a
    // row (visofs -1) or a level without visdata sees everything, as Quake's engine reads it.
    bool visible(int32_t from, int32_t to) const;
    // Leaves in the PVS of `from` (1..visLeafs), itself included when its bit is set.
    size_t countVisible(int32_t from) const;

private:
    friend struct QuakeBspDecoder;
    size_t rowBytes_ = 0;
    std::vector<uint8_t> rows_;     // visLeafs rows of rowBytes_, decompressed
    std::vector<bool> hasRow_;      // per leaf 1..visLeafs (index leaf - 1)
};

// Either a level or why not ("bsp: ...": the part and what is wrong with it).
struct QuakeBspReadResult {
    std::optional<QuakeBsp> bsp;
    std::string error;
};

// Checks every count, offset, index and run against the buffer before use: a short or
// corrupt buffer gives an error, never a read out of bounds or a loop.
QuakeBspReadResult readQuakeBsp(std::span<const uint8_t> bytes);
QuakeBspReadResult readQuakeBspFile(const std::string& path);

} // namespace shallot
