#pragma once
// The worlds and edits `shallot-cli bench` measures besides the maps as they are: more or
// fewer poses, several copies of a map, and single-brush moves compiled incrementally.
#include "compile/compiler.h"

#include <vector>

namespace shallot::cli {

// The middle value (the upper one of an even count); 0 for none.
double median(std::vector<double> v);

// The first `count` of: Quake's point, player and large poses, then boxes 16 units wider
// and 16 taller each time (player-like proportions).
std::vector<Pose> syntheticPoses(int count);

// `copies` copies of the world's brushes side by side along x, kSideBySideGap apart; a
// fraction below 1 keeps that fraction of the brushes, the westernmost ones.
World copiedWorld(const World& world, double copies);

struct EditLatency {
    std::vector<double> ms; // per edit, in order
    int incremental = 0;    // edits that were compiled incrementally (not from scratch)
    double medianMs() const;
    double max() const;
};

// Moves `edits` brushes one at a time (seeded: the same brushes and offsets every run), by
// up to 32 units across and 16 up or down, each followed by an IncrementalCompiler compile.
EditLatency incrementalEditLatency(const World& world, const CompileOptions& options, int edits);

} // namespace shallot::cli
