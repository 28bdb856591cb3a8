#include "light/light_formula.h"

#include <cmath>
#include <limits>

namespace shallot {

double lightAtDistance(const PointLight& l, double dist, double scaledist) {
    if (l.formula == LightFormula::Infinite || l.formula == LightFormula::LocalMinimum) return l.light;
    if (l.formula == LightFormula::Linear && l.falloff > 0) return l.falloff > dist ? l.light * (1.0 - dist / l.falloff) : 0.0;
    double v = scaledist * l.wait * dist;
    switch (l.formula) {
    case LightFormula::Inverse: return l.light / (v / kInverseFalloffScale);
    case LightFormula::InverseSquareA: v += kInverseFalloffScale; [[fallthrough]];
    case LightFormula::InverseSquare: return l.light / ((v * v) / (kInverseFalloffScale * kInverseFalloffScale));
    default: // linear
        return l.light > 0 ? std::max(0.0, l.light - v) : std::min(0.0, l.light + v);
    }
}

double lightReach(const PointLight& l, double scaledist) {
    constexpr double kForever = std::numeric_limits<double>::infinity();
    const double a = std::abs(l.light), k = scaledist * l.wait;
    if (a <= kLightGate) return 0.0;
    switch (l.formula) {
    case LightFormula::Infinite:
    case LightFormula::LocalMinimum: return kForever;
    case LightFormula::Linear: return l.falloff > 0 ? l.falloff : k > 0 ? a / k : kForever;
    case LightFormula::Inverse: return k > 0 ? a * kInverseFalloffScale / (kLightGate * k) : kForever;
    case LightFormula::InverseSquare: return k > 0 ? kInverseFalloffScale * std::sqrt(a / kLightGate) / k : kForever;
    case LightFormula::InverseSquareA:
        return k > 0 ? std::max(0.0, kInverseFalloffScale * std::sqrt(a / kLightGate) - kInverseFalloffScale) / k : kForever;
    }
    return kForever;
}

double lightContribution(const PointLight& l, const Vec3& normal, const Vec3& toLight, double dist, double scaledist) {
    const double cosine = toLight.dot(normal);
    if (cosine < 0) return 0.0; // behind the sample (ericw-tools issue 181)
    const double angle = (1.0 - l.anglescale) + l.anglescale * cosine;
    double value = lightAtDistance(l, dist, scaledist) * angle;
    if (l.spotlight) {
        const double c = l.spotDirection.dot(toLight); // -cos of the angle off the cone's axis
        if (c > l.spotOuterCos) return 0.0;
        if (c > l.spotInnerCos) value *= 1.0 - (c - l.spotInnerCos) / (l.spotOuterCos - l.spotInnerCos);
    }
    return value;
}

} // namespace shallot
