#include "check/trigger_push.h"

#include "check/walking_reach.h"
#include "query/slide_move.h"
#include "query/trace.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace shallot {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegrees = kPi / 180.0;

// A number as Quake reads one (atof: what does not parse is 0).
double quakeNumber(const std::string* text) { return text ? std::strtod(text->c_str(), nullptr) : 0.0; }

// Where a box of `pose` standing at `start` is carried, steering towards `steer` (a
// horizontal unit vector, or zero) while in the air out of the triggers: the polygon it
// stands on when the flight ends (-1 when none), where and after how long.
struct Flight {
    int32_t polygon = -1;
    Vec3 landing = Vec3::Zero();
    double seconds = 0.0;
    std::vector<Aabb> path = {}; // PushFlight::path
};
Flight flight(const BspTree& tree, const NavMesh& mesh, int pose, const Vec3& start, const std::vector<PushVolume>& pushes,
               const std::vector<Aabb>& reach, const Vec3& steer) {
    const Vec3 up = Vec3::UnitZ();
    Vec3 p = start + up * kNavStretchCheckLift, v = Vec3::Zero();
    std::vector<Aabb> path;
    const int steps = int(kPushMaxSeconds / kPushStep);
    for (int i = 0; i < steps; ++i) {
        if (i % kFlightBoxSteps == 0) path.push_back({p, p}); // each box starts where the last ended
        else path.back().add(p);
        bool pushed = false;
        for (size_t k = 0; k < pushes.size(); ++k)
            if (reach[k].contains(p)) {
                v = pushes[k].velocity;
                pushed = true;
            }
        if (!pushed) { // Quake's air control: speed along the wish direction up to kAirWishSpeed
            const double missing = kAirWishSpeed - v.dot(steer);
            if (missing > 0.0) v += steer * std::min(missing, kAirAccelerate * kPlayerSpeed * kPushStep);
        }
        v.z() -= kPushGravity * kPushStep;
        const MoveResult m = slideMove(tree, pose, p, v * kPushStep, 0.0);
        if (m.startSolid) return {};
        for (const Contact& c : m.contacts) {
            const double into = v.dot(c.normal);
            if (into < 0.0) v -= c.normal * into;
        }
        p = m.end;
        path.back().add(p);
        if (pushed || v.z() > 0.0) continue;
        const TraceResult ground = traceSegment(tree, pose, p, p - up * kPushGroundProbe);
        if (ground.hit && ground.normal.z() >= mesh.settings.walkableNormalZ) {
            const Landing l = dropToFloor(tree, mesh, p);
            return {l.polygon, l.point, (i + 1) * kPushStep, std::move(path)};
        }
    }
    return {};
}

} // namespace

Vec3 quakePushVelocity(const std::string* angle, const std::string* angles, const std::string* speed) {
    double pitch = 0.0, yaw = 0.0;
    if (angles) {
        std::istringstream in(*angles);
        in >> pitch >> yaw;
        if (!in) pitch = yaw = 0.0;
    } else {
        yaw = quakeNumber(angle);
    }
    Vec3 movedir;
    if (pitch == 0.0 && yaw == -1.0) movedir = Vec3::UnitZ(); // SetMovedir's special angles
    else if (pitch == 0.0 && yaw == -2.0) movedir = -Vec3::UnitZ();
    else // makevectors' v_forward
        movedir = Vec3(std::cos(pitch * kDegrees) * std::cos(yaw * kDegrees), std::cos(pitch * kDegrees) * std::sin(yaw * kDegrees),
                       -std::sin(pitch * kDegrees));
    const double s = quakeNumber(speed);
    return movedir * ((s != 0.0 && std::isfinite(s) ? s : 1000.0) * 10.0);
}

std::vector<std::pair<int32_t, int32_t>> pushLinks(const BspTree& tree, const NavMesh& mesh, const Pose& pose,
                                                   const std::vector<PushVolume>& pushes) {
    std::vector<std::pair<int32_t, int32_t>> links;
    for (const PushFlight& f : pushFlights(tree, mesh, pose, pushes)) links.push_back({f.from, f.to});
    return links;
}

std::vector<PushFlight> pushFlights(const BspTree& tree, const NavMesh& mesh, const Pose& pose, const std::vector<PushVolume>& all) {
    const std::vector<PushVolume> pushes(all.begin(), all.begin() + long(std::min(all.size(), kPushMaxVolumes)));
    // Where the box's reference point touches each trigger.
    std::vector<Aabb> reach;
    for (const PushVolume& push : pushes) reach.push_back({push.bounds.mins - pose.maxs, push.bounds.maxs - pose.mins});
    std::vector<PushFlight> links;
    int flights = 0;
    for (size_t k = 0; k < pushes.size(); ++k) {
        int entries = 0;
        for (size_t p = 0; p < mesh.polygons.size() && entries < kPushMaxEntries; ++p) {
            Aabb jumpedInto = reach[k];
            jumpedInto.mins.z() -= kPushJumpHeight;
            if (!jumpedInto.overlaps(mesh.polygons[p].bounds)) continue;
            const NavPolygon& polygon = mesh.polygons[p];
            // The polygon's own samples, and the middle of the trigger's footprint when it
            // lies on the polygon (a trigger well inside a large floor touches no edge).
            std::vector<Vec3> samples = floorSamples(polygon);
            Vec3 middle = 0.5 * (reach[k].mins + reach[k].maxs);
            if (containsXY(polygon.vertices, middle, 0.0)) {
                middle.z() = heightOnPolygon(polygon, middle.x(), middle.y());
                samples.insert(samples.begin(), middle);
            }
            for (const Vec3& sample : samples) {
                Vec3 q = sample; // where the box first touches the trigger, jumping if need be
                const double below = reach[k].mins.z() + kNavStretchCheckLift - q.z();
                if (below > 0.0 && below <= kPushJumpHeight) {
                    const Vec3 top(q.x(), q.y(), q.z() + below);
                    if (traceSegment(tree, mesh.pose, q + Vec3::UnitZ() * kNavStretchCheckLift, top).hit) continue;
                    q = top;
                }
                if (!reach[k].contains(q)) continue;
                ++entries;
                // Carried straight, or when that never lands (thrown up out of a push and
                // falling back in), steered each of kSteerDirections ways.
                if (flights >= kPushMaxFlights) return links;
                ++flights;
                std::vector<Flight> landings{flight(tree, mesh, mesh.pose, q, pushes, reach, Vec3::Zero())};
                if (landings[0].polygon < 0)
                    for (int d = 0; d < kSteerDirections && flights < kPushMaxFlights; ++d, ++flights) {
                        const double a = 2.0 * kPi * d / kSteerDirections;
                        landings.push_back(flight(tree, mesh, mesh.pose, q, pushes, reach, Vec3(std::cos(a), std::sin(a), 0.0)));
                    }
                // Per polygon landed on, the quickest flight there.
                std::sort(landings.begin(), landings.end(), [](const Flight& a, const Flight& b) {
                    return a.polygon != b.polygon ? a.polygon < b.polygon : a.seconds < b.seconds;
                });
                for (size_t f = 0; f < landings.size(); ++f) {
                    const Flight& l = landings[f];
                    if (l.polygon < 0 || l.polygon == int32_t(p) || (f > 0 && landings[f - 1].polygon == l.polygon)) continue;
                    links.push_back({int32_t(p), l.polygon, q, l.landing, l.seconds, l.path});
                }
                break;
            }
        }
    }
    return links;
}

} // namespace shallot
