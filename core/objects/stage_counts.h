#pragma once
// The collision seed's table, for our broad phase: for every pair (a moving box against an
// object or another agent) the first stage that settles it, and the time each stage took.
// Stages in order: the grid (the pair shares no cell), bounding spheres (centres farther
// apart than the radii), boxes (the boxes do not overlap), and the exact test (the object's
// tree in its own frame, or the two agents' boxes as slab planes), which settles the rest.
// Every pair is settled by exactly one stage, so the four counts add up to `pairs`.
// Times are sampled: one query in kTimingStride is timed (reading the clock costs about as
// much as a sphere test), and the means are over the timed queries' tests.
#include <array>
#include <cstddef>
#include <cstdint>

namespace shallot {

inline constexpr uint64_t kTimingStride = 8;

enum class CollisionStage : uint8_t { Grid, Sphere, Box, Exact };
inline constexpr int kCollisionStages = 4;

struct StageCounts {
    // False: no query is timed (the clock is never read): callers that only want answers,
    // such as the runtime.
    bool timing = true;
    uint64_t queries = 0;       // broad-phase queries (one per trace, classify or move)
    uint64_t pairs = 0;         // pairs those queries faced (objects + agents, the mover itself left out)
    std::array<uint64_t, kCollisionStages> tested{};  // pairs each stage looked at
    std::array<uint64_t, kCollisionStages> settled{}; // pairs each stage settled
    std::array<double, kCollisionStages> seconds{};   // time spent in each stage by the timed queries
    std::array<uint64_t, kCollisionStages> timedTests{}; // the tests of the timed queries
    uint64_t exactHits = 0;     // exact tests that found contact or overlap
    uint64_t worldQueries = 0;  // traces and point tests against the static world tree
    uint64_t worldTimed = 0;    // of which timed
    double worldSeconds = 0.0;

    // Mean seconds of one test at a stage (the exact test: over all the traces and point
    // tests of its query), and of one world query.
    double meanSeconds(CollisionStage stage) const {
        const size_t s = std::size_t(stage);
        return timedTests[s] ? seconds[s] / double(timedTests[s]) : 0.0;
    }
    double worldMeanSeconds() const { return worldTimed ? worldSeconds / double(worldTimed) : 0.0; }

    void add(const StageCounts& o) {
        queries += o.queries;
        pairs += o.pairs;
        for (int s = 0; s < kCollisionStages; ++s) {
            tested[std::size_t(s)] += o.tested[std::size_t(s)];
            settled[std::size_t(s)] += o.settled[std::size_t(s)];
            seconds[std::size_t(s)] += o.seconds[std::size_t(s)];
            timedTests[std::size_t(s)] += o.timedTests[std::size_t(s)];
        }
        exactHits += o.exactHits;
        worldQueries += o.worldQueries;
        worldSeconds += o.worldSeconds;
        worldTimed += o.worldTimed;
    }
    uint64_t settledTotal() const { return settled[0] + settled[1] + settled[2] + settled[3]; }
};

const char* collisionStageName(CollisionStage stage);

} // namespace shallot
