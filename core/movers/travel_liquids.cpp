// Swimming, water jumps and ladders as travel links (movers/travel.h): the walking check's
// swim rule (check/walking_reach.h: a body of water joins every floor the box is in its
// water from, or climbs out onto) made links a path can report, where the way is clear
// (and through a closed door only once it opens); and Quake 2's and Half-Life's ladders
// climbed between the floors beside them.
#include "movers/travel.h"

#include "check/walking_reach.h"
#include "query/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shallot {

namespace {

// A floor whose box stands higher than this above another's on the same ladder is a climb
// away from it; lower ones are walked (a step).
constexpr double kLadderClimb = 18.0;

// Pairs of points this much longer than the shortest still count as the shortest: the
// tie (two floors' parallel sides) is broken towards the middle of both floors.
constexpr double kNearPairSlack = 8.0;
// At most this many points of a floor are tried for a link (every k-th of more).
constexpr size_t kMaxLinkPoints = 48;

Vec3 meanOf(const std::vector<Vec3>& points) {
    Vec3 sum = Vec3::Zero();
    for (const Vec3& p : points) sum += p;
    return sum / double(points.size());
}

// Where a swim from floor a to floor b boards and lands: the nearest pair of their points,
// of nearly nearest pairs the one whose middle is nearest the middle of both floors (a
// pool's two sides join across its middle, not at whichever end was sampled first).
std::pair<Vec3, Vec3> nearSides(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    const size_t stepA = a.size() / kMaxLinkPoints + 1, stepB = b.size() / kMaxLinkPoints + 1;
    double shortest = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < a.size(); i += stepA)
        for (size_t j = 0; j < b.size(); j += stepB) shortest = std::min(shortest, (a[i] - b[j]).norm());
    const Vec3 middle = 0.5 * (meanOf(a) + meanOf(b));
    std::pair<Vec3, Vec3> best{a.front(), b.front()};
    double bestOff = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < a.size(); i += stepA)
        for (size_t j = 0; j < b.size(); j += stepB) {
            if ((a[i] - b[j]).norm() > shortest + kNearPairSlack) continue;
            const double off = (0.5 * (a[i] + b[j]) - middle).squaredNorm();
            if (off < bestOff) {
                bestOff = off;
                best = {a[i], b[j]};
            }
        }
    return best;
}

// `count` of the body's floors spread out: each next one the farthest from those picked.
std::vector<size_t> spreadHubs(const std::vector<WaterFloor>& body, size_t count) {
    std::vector<size_t> hubs{0};
    std::vector<double> nearest(body.size(), std::numeric_limits<double>::infinity());
    while (hubs.size() < count) {
        const Vec3& last = body[hubs.back()].points.front();
        size_t far = 0;
        for (size_t i = 0; i < body.size(); ++i) {
            nearest[i] = std::min(nearest[i], (body[i].points.front() - last).squaredNorm());
            if (nearest[i] > nearest[far]) far = i;
        }
        if (!(nearest[far] > 0.0)) break;
        hubs.push_back(far);
    }
    return hubs;
}

// Whether the segment a-b passes through the inside of `box` (the slab test).
bool crossesInside(const Vec3& a, const Vec3& b, const Aabb& box) {
    double t0 = 0.0, t1 = 1.0;
    for (int k = 0; k < 3; ++k) {
        const double d = b[k] - a[k];
        if (d == 0.0) {
            if (!(a[k] > box.mins[k] && a[k] < box.maxs[k])) return false;
            continue;
        }
        double ta = (box.mins[k] - a[k]) / d, tb = (box.maxs[k] - a[k]) / d;
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (!(t0 < t1)) return false;
    }
    return true;
}

constexpr int32_t kNoGate = -1, kNotTaken = -2;

// The door gate (graph.gates) a link from a to b passes through the closed volume of, as
// the compiled world leaves doors out: kNoGate, or kNotTaken when it passes a door that
// never opens (shut) or more than one door.
int32_t gateCrossed(const TravelGraph& graph, const Vec3& a, const Vec3& b) {
    int32_t crossed = kNoGate;
    for (size_t g = 0; g < graph.gates.size(); ++g) {
        const DoorGate& gate = graph.gates[g];
        if (gate.free) continue;
        if (!std::any_of(gate.boxes.begin(), gate.boxes.end(), [&](const Aabb& box) { return crossesInside(a, b, box); })) continue;
        if (gate.shut || crossed != kNoGate) return kNotTaken;
        crossed = int32_t(g);
    }
    return crossed;
}

// The first point pose of the tree (the sight pose), -1 when it has none.
int pointPoseOf(const BspTree& tree) {
    for (size_t i = 0; i < tree.poses.size(); ++i)
        if (tree.poses[i].isPoint() && !tree.poses[i].shape.isRound()) return int(i);
    return -1;
}

struct Swimmer {
    const BspTree& tree;
    int pointPose;
    double stepHeight;
    TravelGraph& graph;

    // A swim from floor a to floor b of one body, when the straight way between their
    // points is clear of solid (a body's bounds may join pools a wall parts); out onto a
    // floor the box is not in the water from (but for a wade out of shallow water): a
    // water jump.
    void link(const WaterFloor& a, const WaterFloor& b) const {
        if (a.polygon == b.polygon) return;
        const auto [from, to] = nearSides(a.points, b.points);
        if (pointPose >= 0) {
            const TraceResult t = traceSegment(tree, pointPose, from, to);
            if (t.hit || t.startSolid) return;
        }
        const int32_t gate = gateCrossed(graph, from, to);
        if (gate == kNotTaken) return;
        // From a floor in shallow water to one beside it at about its height: waded.
        const bool climbs = !b.inWater && (!a.inWater || to.z() > from.z() + stepHeight);
        graph.links.push_back({climbs ? TravelKind::WaterJump : TravelKind::Swim, a.polygon, b.polygon, from, to,
                               (to - from).norm() / kSwimSpeed, -1, -1, gate});
    }
};

void addSwims(const Swimmer& swimmer, const Pose& pose, const std::vector<BrushGeometry>& water) {
    for (const std::vector<WaterFloor>& body : waterFloors(*swimmer.graph.mesh, pose, water)) {
        if (body.size() <= kMaxSwimClique) {
            for (const WaterFloor& a : body)
                for (const WaterFloor& b : body) swimmer.link(a, b);
            continue;
        }
        for (const size_t h : spreadHubs(body, kSwimHubs))
            for (const WaterFloor& f : body) {
                swimmer.link(f, body[h]);
                swimmer.link(body[h], f);
            }
    }
}

void addLadders(TravelGraph& graph, const Pose& pose, const std::vector<BrushGeometry>& ladders) {
    const Vec3 reach = Vec3::Constant(kLadderReach);
    for (const BrushGeometry& ladder : ladders) {
        // Where the reference point puts the box within reach of the ladder.
        std::vector<int32_t> polygons;
        std::vector<Vec3> points;
        polygonsTouching(*graph.mesh, {ladder.bounds.mins - pose.maxs - reach, ladder.bounds.maxs - pose.mins + reach}, polygons,
                         points);
        for (size_t i = 0; i < polygons.size(); ++i)
            for (size_t j = 0; j < polygons.size(); ++j) {
                const double rise = points[j].z() - points[i].z();
                if (std::abs(rise) <= kLadderClimb) continue;
                const int32_t gate = gateCrossed(graph, points[i], points[j]);
                if (gate == kNotTaken) continue;
                const double across = (points[j] - points[i]).head<2>().norm();
                graph.links.push_back({TravelKind::Ladder, polygons[i], polygons[j], points[i], points[j],
                                       std::abs(rise) / kLadderSpeed + across / kWalkSpeed, -1, -1, gate});
            }
    }
}

} // namespace

void addSwimAndLadderLinks(TravelGraph& graph, const BspTree& tree, const Pose& pose, const TravelLevel& level) {
    if (!level.water.empty()) addSwims({tree, pointPoseOf(tree), pose.nav.stepHeight, graph}, pose, level.water);
    if (!level.ladders.empty()) addLadders(graph, pose, level.ladders);
}

} // namespace shallot
