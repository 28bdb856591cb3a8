#include "light/coarse_lattice.h"

#include <algorithm>

namespace shallot {

namespace {

// For each line 0..count-1: the lattice segment [lines[k], lines[k + 1]] that holds it and
// the weight of its far end.
struct Span {
    size_t k;
    double w;
};

std::vector<Span> spansOf(const std::vector<int>& lines, int count) {
    std::vector<Span> out(size_t(count), Span{0, 0.0});
    if (lines.size() < 2) return out;
    size_t k = 0;
    for (int i = 0; i < count; ++i) {
        while (k + 2 < lines.size() && i > lines[k + 1]) ++k;
        out[size_t(i)] = {k, double(i - lines[k]) / double(lines[k + 1] - lines[k])};
    }
    return out;
}

} // namespace

std::vector<int> latticeLines(int count, int stride) {
    std::vector<int> lines;
    for (int i = 0; i < count; i += std::max(1, stride)) lines.push_back(i);
    if (lines.back() != count - 1) lines.push_back(count - 1);
    return lines;
}

std::vector<Vec3> expandLattice(const std::vector<Vec3>& values, const std::vector<int>& columns, const std::vector<int>& rows,
                                int width, int height) {
    const std::vector<Span> across = spansOf(columns, width), down = spansOf(rows, height);
    const size_t stride = columns.size();
    const auto at = [&](size_t col, size_t row) -> const Vec3& { return values[row * stride + col]; };
    std::vector<Vec3> out;
    out.reserve(size_t(width) * size_t(height));
    for (int j = 0; j < height; ++j) {
        const Span r = down[size_t(j)];
        const size_t r1 = std::min(r.k + 1, rows.size() - 1);
        for (int i = 0; i < width; ++i) {
            const Span c = across[size_t(i)];
            const size_t c1 = std::min(c.k + 1, columns.size() - 1);
            const Vec3 top = at(c.k, r.k) * (1 - c.w) + at(c1, r.k) * c.w;
            const Vec3 bottom = at(c.k, r1) * (1 - c.w) + at(c1, r1) * c.w;
            out.push_back(top * (1 - r.w) + bottom * r.w);
        }
    }
    return out;
}

} // namespace shallot
