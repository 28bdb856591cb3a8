#pragma once
#include "compile/compile_state.h"

#include <vector>

namespace shallot {

// Which brushes an edit changed: the brushes of the previous world matched to the current
// one, in order. With equal counts brushes are matched by index; otherwise the common
// prefix and suffix match and everything between them counts as changed (one brush
// inserted or deleted shifts the ones after it).
struct BrushDiff {
    std::vector<int32_t> newOfOld; // per previous brush: its index now, or -1 (changed or deleted)
    std::vector<int32_t> oldOfNew; // per current brush: its previous index, or -1 (changed or new)
    size_t changed = 0;            // unmatched brushes, previous and current together
};

BrushDiff diffBrushes(const std::vector<BrushKey>& before, const std::vector<BrushKey>& after);

} // namespace shallot
