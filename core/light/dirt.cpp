#include "light/dirt.h"

#include <array>
#include <cmath>
#include <numbers>

namespace shallot {

namespace {

// ericw-tools' tangent frame of a normal (MakeTangentAndBitangentUnnormalized): crossed
// with the two axes after its largest component, swapped so that up x right is the normal.
std::pair<Vec3, Vec3> tangentFrame(const Vec3& n) {
    int axis = 0;
    for (int i = 1; i < 3; ++i)
        if (std::abs(n[i]) > std::abs(n[axis])) axis = i;
    Vec3 a = Vec3::Zero(), b = Vec3::Zero();
    a[(axis + 1) % 3] = 1;
    b[(axis + 2) % 3] = 1;
    Vec3 tangent = n.cross(a), bitangent = n.cross(b);
    if (tangent.cross(bitangent).dot(n) < 0) std::swap(tangent, bitangent);
    return {tangent.normalized(), bitangent.normalized()};
}

} // namespace

double dirtFactor(double occlusion, double gain, double scale) {
    if (occlusion <= 0) return 1.0;
    // pow(x, 1) is x exactly; the default gain of 1 skips the call (a few percent of a
    // lighting with dirt: it runs for every sample and light).
    const double raised = gain == 1.0 ? occlusion : std::pow(occlusion, gain);
    const double dirt = std::min(1.0, std::min(1.0, raised) * scale);
    return 1.0 - dirt;
}

std::vector<double> sampleOcclusion(const std::vector<Vec3>& samples, const Vec3& normal, const DirtSettings& dirt,
                                    const LightOccluder& occluder, size_t& rays, int angleSteps) {
    const auto [up, right] = tangentFrame(normal);
    std::vector<Vec3> directions;
    const double angleStep = 2 * std::numbers::pi / angleSteps;
    const double elevationStep = dirt.angle * std::numbers::pi / 180 / kDirtElevationSteps;
    for (int i = 0; i < angleSteps; ++i) {
        const double angle = i * angleStep;
        for (int j = 0; j < kDirtElevationSteps; ++j) {
            const double elevation = elevationStep * (0.5 + j);
            const Vec3 v(std::sin(elevation) * std::cos(angle), std::sin(elevation) * std::sin(angle), std::cos(elevation));
            directions.push_back((right * v[0] + up * v[1] + normal * v[2]).normalized());
        }
    }
    std::vector<double> occlusion(samples.size());
    for (size_t k = 0; k < samples.size(); ++k) {
        double open = 0;
        for (const Vec3& d : directions) open += occluder.openDistance(samples[k], d, dirt.depth);
        occlusion[k] = 1.0 - open / double(directions.size()) / dirt.depth;
    }
    rays += samples.size() * directions.size();
    return occlusion;
}

} // namespace shallot
