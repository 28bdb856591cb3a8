#include "compile/splitter_choice.h"

#include "geometry/tolerances.h"

#include <algorithm>
#include <cmath>

namespace shallot {

namespace {

double score(PlaneId candidate, const std::vector<BuildPolygon>& polygons, size_t stride,
             const std::vector<Plane>& planes, const SplitterParams& params, double balanceWeight) {
    const Plane& plane = planes[size_t(candidate)];
    const int axis = plane.axis();
    size_t front = 0, back = 0, splits = 0, on = 0;
    for (size_t i = 0; i < polygons.size(); i += stride) {
        const BuildPolygon& p = polygons[i];
        // A retired polygon (its plane already split an ancestor) never becomes a node, so
        // cutting it costs no node and it weighs in neither the splits nor the balance.
        if (!p.splitCandidate) continue;
        if (sameSurface(p.plane, candidate)) {
            ++on;
            continue;
        }
        switch (classifyBuildPolygon(p, plane, axis)) {
        case Side::Front: ++front; break;
        case Side::Back: ++back; break;
        case Side::Straddle: ++splits; break;
        case Side::On: ++on; break;
        }
    }
    const double imbalance = std::abs(double(front) - double(back));
    const double s = params.splitWeight * double(splits) + balanceWeight * imbalance -
                     params.coplanarWeight * double(on);
    return axis >= 0 ? s : s * params.nonAxialFactor + 1.0;
}

} // namespace

double balanceWeightAt(const SplitterParams& params, int depth) {
    if (depth <= params.balanceFreeDepth || params.balanceDepthStep <= 0.0) return params.balanceWeight;
    return params.balanceWeight * (1.0 + double(depth - params.balanceFreeDepth) / params.balanceDepthStep);
}

std::vector<PlaneId> rankSplitters(const std::vector<BuildPolygon>& polygons, const std::vector<Plane>& planes,
                                   const SplitterParams& params, int depth, size_t count) {
    std::vector<PlaneId> candidates;
    for (const BuildPolygon& p : polygons)
        if (p.splitCandidate) candidates.push_back(p.plane);
    if (candidates.empty()) return {};
    // One entry per surface, facing as a polygon on it does: a map tree's leaves read
    // their solidity off the side of the splitter they are on.
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end(), sameSurface), candidates.end());
    if (candidates.size() == 1) return candidates;

    if (polygons.size() > params.axialOnlyAbove) {
        std::vector<PlaneId> axial;
        for (PlaneId c : candidates)
            if (planes[size_t(c)].axis() >= 0) axial.push_back(c);
        if (!axial.empty()) candidates.swap(axial);
    }
    const size_t candidateStride = (candidates.size() + params.maxCandidates - 1) / params.maxCandidates;
    const size_t polygonStride = std::max<size_t>(1, polygons.size() / params.maxScored);
    const double balanceWeight = balanceWeightAt(params, depth);
    std::vector<std::pair<double, PlaneId>> scored;
    // Offset the sample so that the middle of the sorted list is reached too.
    for (size_t i = candidateStride / 2; i < candidates.size(); i += candidateStride)
        scored.push_back({score(candidates[i], polygons, polygonStride, planes, params, balanceWeight), candidates[i]});
    count = std::min(count, scored.size());
    // Equal scores keep the sample's order (the first best wins).
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<PlaneId> best(count);
    for (size_t i = 0; i < count; ++i) best[i] = scored[i].second;
    return best;
}

std::optional<PlaneId> chooseSplitter(const std::vector<BuildPolygon>& polygons, const std::vector<Plane>& planes,
                                      const SplitterParams& params, int depth) {
    const std::vector<PlaneId> best = rankSplitters(polygons, planes, params, depth, 1);
    if (best.empty()) return std::nullopt;
    return best[0];
}

} // namespace shallot
