#include "light/coarse_suns.h"

namespace shallot {

namespace {

bool alike(const SunLight& a, const SunLight& b) {
    return a.light == b.light && a.color == b.color && a.style == b.style && a.anglescale == b.anglescale && a.dirt == b.dirt;
}

} // namespace

std::vector<SunLight> coarseSuns(const std::vector<SunLight>& suns) {
    std::vector<SunLight> out;
    for (size_t i = 0; i < suns.size();) {
        size_t end = i + 1;
        while (end < suns.size() && end - i < kCoarseSunGroup && alike(suns[i], suns[end])) ++end;
        if (end == i + 1) { // alone: kept as it is
            out.push_back(suns[i++]);
            continue;
        }
        SunLight merged = suns[i];
        Vec3 direction = Vec3::Zero();
        double light = 0;
        for (size_t k = i; k < end; ++k) {
            direction += suns[k].towardSun * std::abs(suns[k].light);
            light += suns[k].light;
        }
        // Opposite suns cancel out: keep the first's direction.
        if (direction.norm() > 0) merged.towardSun = direction.normalized();
        merged.light = light;
        out.push_back(merged);
        i = end;
    }
    return out;
}

} // namespace shallot
