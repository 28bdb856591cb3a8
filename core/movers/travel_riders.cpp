// Plats, trains and doors as floors that carry the agent (movers/travel.h): at each stop,
// the floors beside the mover's top (where the agent steps on and off), joined by a ride
// to the next stop and by a walk across the top. A door's top rides too: id_e1m1's bridge
// t1 is a door that lowers whoever presses its button standing on it.
#include "movers/travel.h"

#include <algorithm>
#include <cmath>

namespace shallot {

namespace {

// The floors beside a mover's top are looked for every this many units along its sides,
constexpr double kBoardSpacing = 32.0;
// with the pose's box this far out from the side (clear of the mover, on the floor beside).
constexpr double kBoardReach = 2.0;
// At most this many boarding polygons per stop (a huge plat over a ragged floor).
constexpr size_t kMaxBoarding = 16;

struct Boarding {
    std::vector<int32_t> polygons;
    std::vector<Vec3> points;
    // Seconds between the floor and the top: a swim for a top standing in water, else 0.
    std::vector<double> leads;
    void add(int32_t polygon, const Vec3& point, double lead = 0.0) {
        if (polygon < 0 || polygons.size() >= kMaxBoarding) return;
        if (std::find(polygons.begin(), polygons.end(), polygon) != polygons.end()) return;
        polygons.push_back(polygon);
        points.push_back(point);
        leads.push_back(lead);
    }
};

// Where the reference point stands on the top of `box` (its middle).
Vec3 standingOn(const Aabb& box, const Pose& pose) {
    return {0.5 * (box.mins.x() + box.maxs.x()), 0.5 * (box.mins.y() + box.maxs.y()), box.maxs.z() - pose.mins.z()};
}

// The floors within a step of the top of `box` (the mover at a stop), just beside its
// sides; with `under`, also the floor under its middle (a plat's shaft, where the agent
// stands when the plat is away) within the mover's thickness and a step below its top. A
// top standing in water is boarded by swimming onto it: from the floors of that water the
// swim reaches, nearest first.
Boarding boardingAt(const BspTree& tree, const NavMesh& mesh, const Pose& pose, WaterBodies& water, const Aabb& box, bool under) {
    Boarding out;
    const Vec3 standing = standingOn(box, pose);
    const double ref = standing.z();
    for (const SwimmingFloor& f : water.floorsSwimmingTo(standing)) out.add(f.polygon, f.point, f.length / kSwimSpeed);
    const double step = mesh.settings.stepHeight;
    const double reachX = pose.maxs.x() + kBoardReach, reachY = pose.maxs.y() + kBoardReach;
    auto probe = [&](double x, double y, double below) {
        const Landing l = dropToFloor(tree, mesh, Vec3(x, y, ref + step));
        if (l.landed && l.polygon >= 0 && l.point.z() <= ref + step && l.point.z() >= ref - below) out.add(l.polygon, l.point);
    };
    for (int side = 0; side < 4; ++side) {
        const bool alongX = side < 2;
        const double lo = alongX ? box.mins.x() : box.mins.y(), hi = alongX ? box.maxs.x() : box.maxs.y();
        const int n = std::max(1, int(std::ceil((hi - lo) / kBoardSpacing)));
        for (int k = 0; k < n; ++k) {
            const double t = lo + (hi - lo) * (k + 0.5) / n;
            if (alongX) probe(t, side == 0 ? box.mins.y() - reachY : box.maxs.y() + reachY, step);
            else probe(side == 2 ? box.mins.x() - reachX : box.maxs.x() + reachX, t, step);
        }
    }
    if (under) probe(0.5 * (box.mins.x() + box.maxs.x()), 0.5 * (box.mins.y() + box.maxs.y()), box.maxs.z() - box.mins.z() + step);
    return out;
}

// Records where the agent stands on the mover at a stop (for openers touched from there).
Boarding recorded(TravelGraph& graph, const Pose& pose, const Aabb& box, Boarding boarding) {
    if (!boarding.polygons.empty()) {
        const double ref = standingOn(box, pose).z();
        graph.floors.push_back({Aabb{Vec3(box.mins.x(), box.mins.y(), ref), Vec3(box.maxs.x(), box.maxs.y(), ref)}, boarding.polygons,
                                boarding.points});
    }
    return boarding;
}

// Where a train's top is boarded at corner `c`: there, or when the box standing on it there
// would be in solid (a corner hidden in a wall or under a floor: trains wait out of sight),
// where the top comes out on the way to corner `next` (sampled every kBoardSpacing).
Aabb trainBoardedAt(const Mover& m, size_t c, int next, const BspTree& tree, int treePose, const Pose& pose) {
    const Aabb box = m.boundsAt(MoverState::atCorner(int(c)));
    if (next < 0 || size_t(next) == c || !tree.isSolid(standingOn(box, pose), treePose)) return box;
    const Vec3 move = m.motion.stops[size_t(next)] - m.motion.stops[c];
    const int steps = std::max(1, int(std::ceil(move.norm() / kBoardSpacing)));
    for (int k = 1; k <= steps; ++k) {
        const Aabb moved{box.mins + move * (double(k) / steps), box.maxs + move * (double(k) / steps)};
        if (!tree.isSolid(standingOn(moved, pose), treePose)) return moved;
    }
    return box;
}

// Links from every floor of `a` to every floor of `b` (itself left out), the swims to and
// from a top in the water timed in.
void join(TravelGraph& graph, TravelKind kind, const Boarding& a, const Boarding& b, double seconds, bool walkAcross, int entity,
          int needs) {
    for (size_t i = 0; i < a.polygons.size(); ++i)
        for (size_t j = 0; j < b.polygons.size(); ++j) {
            if (a.polygons[i] == b.polygons[j]) continue;
            const double s = (walkAcross ? (b.points[j] - a.points[i]).norm() / kWalkSpeed : seconds) + a.leads[i] + b.leads[j];
            graph.links.push_back({kind, a.polygons[i], b.polygons[j], a.points[i], b.points[j], s, entity, needs});
        }
}

} // namespace

void addRiderLinks(TravelGraph& graph, const BspTree& tree, const Pose& pose, const TravelLevel& level, WaterBodies& water) {
    const NavMesh& mesh = *graph.mesh;
    for (const Mover& m : level.movers.movers) {
        const bool named = !m.targetname.empty();
        if (m.kind == MoverKind::Plat) {
            const Aabb topBox = m.boundsAt(MoverState::closed()), bottomBox = m.boundsAt(MoverState::open());
            const Boarding top = recorded(graph, pose, topBox, boardingAt(tree, mesh, pose, water, topBox, false));
            const Boarding bottom = recorded(graph, pose, bottomBox, boardingAt(tree, mesh, pose, water, bottomBox, true));
            const int needs = named ? m.entity : -1;
            join(graph, TravelKind::Plat, bottom, top, m.secondsBetween(MoverState::open(), MoverState::closed()), false, m.entity, needs);
            join(graph, TravelKind::Plat, top, bottom, m.secondsBetween(MoverState::closed(), MoverState::open()), false, m.entity, needs);
            join(graph, TravelKind::Plat, bottom, bottom, 0.0, true, m.entity, needs);
        } else if (m.kind == MoverKind::Train) {
            const size_t n = m.motion.stops.size();
            auto nextOf = [&](int c) { return size_t(c) + 1 < n ? c + 1 : m.motion.loopsTo; };
            std::vector<Boarding> at;
            for (size_t c = 0; c < n; ++c) {
                const Aabb box = trainBoardedAt(m, c, nextOf(int(c)), tree, mesh.pose, pose);
                at.push_back(recorded(graph, pose, box, boardingAt(tree, mesh, pose, water, box, false)));
            }
            const int needs = named ? m.entity : -1;
            // Ridden to the next stop with floors to step off onto, through those without (a
            // stop hidden in a wall or under a floor, where trains often wait out of sight).
            for (size_t c = 0; c < n; ++c) {
                if (at[c].polygons.empty()) continue;
                double s = 0.0;
                int stop = int(c);
                for (size_t hops = 0; hops < n; ++hops) {
                    const int next = nextOf(stop);
                    if (next < 0 || size_t(next) == c) break;
                    s += m.secondsBetween(MoverState::atCorner(stop), MoverState::atCorner(next));
                    stop = next;
                    if (!at[size_t(stop)].polygons.empty()) break;
                }
                if (size_t(stop) != c && !at[size_t(stop)].polygons.empty() && std::isfinite(s))
                    join(graph, TravelKind::Train, at[c], at[size_t(stop)], s, false, m.entity, needs);
            }
        } else if (m.kind == MoverKind::Door) {
            // A door that makes a floor: walked across at each end, ridden from where it
            // spawns to its other end once fired, and back after its wait (unless it stays).
            const MoverState other = m.spawn == MoverState::open() ? MoverState::closed() : MoverState::open();
            const Aabb spawnBox = m.boundsAt(m.spawn), otherBox = m.boundsAt(other);
            const Boarding spawned = recorded(graph, pose, spawnBox, boardingAt(tree, mesh, pose, water, spawnBox, false));
            const Boarding opened = recorded(graph, pose, otherBox, boardingAt(tree, mesh, pose, water, otherBox, false));
            const double there = m.secondsBetween(m.spawn, other), back = m.secondsBetween(other, m.spawn);
            join(graph, TravelKind::Door, spawned, spawned, 0.0, true, m.entity, -1);
            join(graph, TravelKind::Door, opened, opened, 0.0, true, m.entity, m.entity);
            if (std::isfinite(there)) join(graph, TravelKind::Door, spawned, opened, there, false, m.entity, m.entity);
            if (m.wait >= 0.0 && std::isfinite(back)) join(graph, TravelKind::Door, opened, spawned, m.wait + back, false, m.entity, m.entity);
        }
    }
}

} // namespace shallot
