#include "incremental/brush_diff.h"

namespace shallot {

BrushDiff diffBrushes(const std::vector<BrushKey>& before, const std::vector<BrushKey>& after) {
    BrushDiff d;
    d.newOfOld.assign(before.size(), -1);
    d.oldOfNew.assign(after.size(), -1);
    auto match = [&](size_t oldIndex, size_t newIndex) {
        d.newOfOld[oldIndex] = int32_t(newIndex);
        d.oldOfNew[newIndex] = int32_t(oldIndex);
    };
    if (before.size() == after.size()) {
        for (size_t i = 0; i < before.size(); ++i)
            if (before[i] == after[i]) match(i, i);
    } else {
        size_t prefix = 0;
        while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix]) match(prefix, prefix), ++prefix;
        for (size_t suffix = 1; suffix <= before.size() - prefix && suffix <= after.size() - prefix; ++suffix) {
            const size_t o = before.size() - suffix, n = after.size() - suffix;
            if (!(before[o] == after[n])) break;
            match(o, n);
        }
    }
    for (int32_t n : d.newOfOld) d.changed += n < 0;
    for (int32_t o : d.oldOfNew) d.changed += o < 0;
    return d;
}

} // namespace shallot
