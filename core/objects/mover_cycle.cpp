#include "objects/mover_cycle.h"

#include <algorithm>
#include <cmath>

namespace shallot {

namespace {

// The stop nearest to the spawn place.
size_t spawnStop(const Mover& mover) {
    const Vec3 spawn = mover.offsetAt(mover.spawn);
    const std::vector<Vec3>& stops = mover.motion.stops;
    size_t best = 0;
    for (size_t i = 1; i < stops.size(); ++i)
        if ((stops[i] - spawn).squaredNorm() < (stops[best] - spawn).squaredNorm()) best = i;
    return best;
}

// Where a leg list is `t` seconds in (t >= 0, within its total).
Vec3 along(const std::vector<MoverCycle::Leg>& legs, size_t begin, size_t end, double& t) {
    for (size_t i = begin; i < end; ++i) {
        const MoverCycle::Leg& leg = legs[i];
        if (t < leg.travel) return leg.from + (leg.to - leg.from) * (t / leg.travel);
        t -= leg.travel;
        if (t < leg.wait) return leg.to;
        t -= leg.wait;
    }
    return end > begin ? legs[end - 1].to : Vec3::Zero();
}

double duration(const std::vector<MoverCycle::Leg>& legs, size_t begin, size_t end) {
    double total = 0.0;
    for (size_t i = begin; i < end; ++i) total += legs[i].travel + legs[i].wait;
    return total;
}

} // namespace

Vec3 MoverCycle::offsetAt(double seconds) const {
    if (legs.empty()) return rest;
    double t = std::isfinite(seconds) && seconds > 0.0 ? seconds : 0.0;
    const double prefix = duration(legs, 0, loopFrom);
    if (t < prefix || loopFrom == legs.size()) return along(legs, 0, loopFrom, t);
    t -= prefix;
    const double period = duration(legs, loopFrom, legs.size());
    if (!(period > 0.0)) return legs[loopFrom].from;
    t = std::fmod(t, period);
    return along(legs, loopFrom, legs.size(), t);
}

MoverCycle moverCycle(const Mover& mover) {
    MoverCycle cycle;
    cycle.rest = mover.offsetAt(mover.spawn);
    const std::vector<Vec3>& stops = mover.motion.stops;
    const std::vector<double>& waits = mover.motion.waits;
    if (mover.kind == MoverKind::Static || stops.size() < 2 || !(std::isfinite(mover.speed) && mover.speed > 0.0) ||
        !cycle.rest.allFinite())
        return cycle;
    for (const Vec3& s : stops)
        if (!s.allFinite()) return cycle;
    auto waitAt = [&](size_t stop) { return stop < waits.size() && std::isfinite(waits[stop]) ? waits[stop] : 0.0; };
    // Appends the leg to `stop`; false when the mover stays there for good (a wait of -1).
    auto go = [&](size_t from, size_t to, bool end) {
        double wait = waitAt(to);
        const bool forever = wait < 0.0;
        if (end) wait = std::max(wait, kCycleRestSeconds);
        cycle.legs.push_back({stops[from], stops[to], (stops[to] - stops[from]).norm() / mover.speed, forever ? 0.0 : wait});
        return !forever;
    };
    const size_t last = stops.size() - 1, start = spawnStop(mover);
    if (mover.kind == MoverKind::Train) {
        // On from the spawn corner to the chain's end, then round its loop for ever.
        for (size_t i = start; i < last; ++i)
            if (!go(i, i + 1, false)) {
                cycle.loopFrom = cycle.legs.size();
                return cycle;
            }
        if (mover.motion.loopsTo < 0 || size_t(mover.motion.loopsTo) > last) {
            cycle.loopFrom = cycle.legs.size();
            return cycle;
        }
        cycle.loopFrom = cycle.legs.size();
        const size_t loop = size_t(mover.motion.loopsTo);
        if (!go(last, loop, false)) {
            cycle.loopFrom = cycle.legs.size();
            return cycle;
        }
        for (size_t i = loop; i < last; ++i)
            if (!go(i, i + 1, false)) {
                cycle.loopFrom = cycle.legs.size();
                return cycle;
            }
        return cycle;
    }
    // A rest where it spawned, then to the far end and back for ever.
    cycle.legs.push_back({stops[start], stops[start], 0.0, std::max(waitAt(start), kCycleRestSeconds)});
    cycle.loopFrom = 1;
    const bool outward = start == 0;
    const size_t far = outward ? last : 0;
    for (size_t i = start; i != far; outward ? ++i : --i) {
        const size_t next = outward ? i + 1 : i - 1;
        if (!go(i, next, next == far)) {
            cycle.loopFrom = cycle.legs.size();
            return cycle;
        }
    }
    for (size_t i = far; i != start; outward ? --i : ++i) {
        const size_t next = outward ? i - 1 : i + 1;
        if (!go(i, next, next == start)) {
            cycle.loopFrom = cycle.legs.size();
            return cycle;
        }
    }
    return cycle;
}

} // namespace shallot
