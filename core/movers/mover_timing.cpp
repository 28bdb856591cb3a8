// A mover's timing: how long its moves take and where it is as time goes on.
#include "movers/mover.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shallot {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// Arc length from the first stop to each stop.
std::vector<double> arcOfStops(const std::vector<Vec3>& stops) {
    std::vector<double> arc(stops.size(), 0.0);
    for (size_t i = 1; i < stops.size(); ++i) arc[i] = arc[i - 1] + (stops[i] - stops[i - 1]).norm();
    return arc;
}

// Where along the stops' polyline (arc length) a state puts the mover.
double arcOf(const MoverState& state, const std::vector<double>& arc) {
    const double total = arc.back();
    switch (state.type) {
    case MoverState::Type::Closed: return 0.0;
    case MoverState::Type::Open: return total;
    case MoverState::Type::Corner: return arc[size_t(std::clamp(state.corner, 0, int(arc.size()) - 1))];
    case MoverState::Type::Fraction:
        if (!(state.fraction > 0.0)) return 0.0;
        return state.fraction >= 1.0 ? total : state.fraction * total;
    }
    return 0.0;
}

// The waits of the stops whose arc lies strictly between a and b (a < b).
double waitsBetween(const std::vector<double>& arc, const std::vector<double>& waits, double a, double b) {
    double total = 0.0;
    for (size_t i = 0; i < arc.size() && i < waits.size(); ++i)
        if (arc[i] > a && arc[i] < b && waits[i] > 0.0) total += waits[i];
    return total;
}

// One leg of a schedule: moving from stop `from` to stop `to`, then waiting at `to`.
struct Leg {
    size_t from, to;
    double moveSeconds, waitSeconds; // waitSeconds -1: stays there for ever
};

} // namespace

double Mover::secondsBetween(const MoverState& from, const MoverState& to) const {
    const std::vector<Vec3>& stops = motion.stops;
    if (stops.empty()) return kNever;
    const std::vector<double> arc = arcOfStops(stops);
    const double a = arcOf(from, arc), b = arcOf(to, arc);
    if (a == b) return 0.0;
    if (!(speed > 0.0) || !std::isfinite(speed)) return kNever;
    if (kind != MoverKind::Train || b > a)
        return std::abs(b - a) / speed + waitsBetween(arc, motion.waits, std::min(a, b), std::max(a, b));
    // A train behind where it is: round its loop, if it has one that passes `to`.
    if (motion.loopsTo < 0) return kNever;
    const double loopStart = arc[size_t(motion.loopsTo)];
    if (b < loopStart) return kNever;
    const double loopLeg = (stops.back() - stops[size_t(motion.loopsTo)]).norm();
    const double lastWait = motion.waits.size() == stops.size() ? std::max(motion.waits.back(), 0.0) : 0.0;
    const double loopWait = size_t(motion.loopsTo) < motion.waits.size() ? std::max(motion.waits[size_t(motion.loopsTo)], 0.0) : 0.0;
    return (arc.back() - a + loopLeg + (b - loopStart)) / speed + waitsBetween(arc, motion.waits, a, arc.back()) +
           (a < arc.back() ? lastWait : 0.0) + (b > loopStart ? loopWait : 0.0) +
           waitsBetween(arc, motion.waits, loopStart, b);
}

namespace {

// The legs a mover runs from `from`: a train forward along its chain (then its loop, again
// and again); the others to the far end and back. legs[repeatFrom..] repeat for ever
// (repeatFrom == legs.size(): they do not).
std::vector<Leg> legsFrom(const Mover& mover, const MoverState& from, size_t& repeatFrom) {
    const std::vector<Vec3>& stops = mover.motion.stops;
    auto waitAt = [&](size_t i) { return i < mover.motion.waits.size() ? mover.motion.waits[i] : 0.0; };
    auto leg = [&](size_t a, size_t b) { return Leg{a, b, (stops[b] - stops[a]).norm() / mover.speed, waitAt(b)}; };
    std::vector<Leg> legs;
    repeatFrom = 0;
    const size_t last = stops.size() - 1;
    if (mover.kind == MoverKind::Train) {
        const size_t first = size_t(std::clamp(from.type == MoverState::Type::Corner ? from.corner : 0, 0, int(last)));
        for (size_t i = first; i < last; ++i) legs.push_back(leg(i, i + 1));
        repeatFrom = legs.size();
        if (mover.motion.loopsTo >= 0) {
            const size_t back = size_t(mover.motion.loopsTo);
            // The loop: last -> loopsTo -> ... -> last.
            legs.push_back(leg(last, back));
            for (size_t i = back; i < last; ++i) legs.push_back(leg(i, i + 1));
        }
    } else if (from.type == MoverState::Type::Open) { // from the last stop to the first and back
        for (size_t i = last; i > 0; --i) legs.push_back(leg(i, i - 1));
        for (size_t i = 0; i < last; ++i) legs.push_back(leg(i, i + 1));
    } else {
        for (size_t i = 0; i < last; ++i) legs.push_back(leg(i, i + 1));
        for (size_t i = last; i > 0; --i) legs.push_back(leg(i, i - 1));
    }
    return legs;
}

bool moves(const Mover& mover) {
    return mover.motion.stops.size() >= 2 && mover.speed > 0.0 && std::isfinite(mover.speed);
}

} // namespace

double Mover::roundTripSeconds(const MoverState& from) const {
    if (kind == MoverKind::Static) return 0.0;
    if (kind == MoverKind::Train || !moves(*this)) return kNever;
    size_t repeatFrom = 0;
    const std::vector<Leg> legs = legsFrom(*this, from, repeatFrom);
    double total = 0.0;
    for (size_t i = 0; i < legs.size(); ++i) {
        total += legs[i].moveSeconds;
        if (i + 1 == legs.size()) break; // the wait back home is not part of the trip
        if (legs[i].waitSeconds < 0.0) return kNever;
        total += legs[i].waitSeconds;
    }
    return total;
}

Vec3 Mover::offsetAtTimeFrom(const MoverState& from, double seconds) const {
    const std::vector<Vec3>& stops = motion.stops;
    const Vec3 start = offsetAt(from);
    if (!moves(*this) || !(seconds > 0.0)) return start;
    size_t repeatFrom = 0;
    const std::vector<Leg> legs = legsFrom(*this, from, repeatFrom);
    // Walk the legs; a wait of -1 stops it there for ever.
    double period = 0.0;
    for (size_t i = repeatFrom; i < legs.size(); ++i) {
        if (legs[i].waitSeconds < 0.0) {
            period = 0.0;
            break;
        }
        period += legs[i].moveSeconds + legs[i].waitSeconds;
    }
    double t = seconds;
    for (size_t i = 0;; ++i) {
        if (i == legs.size()) {
            if (repeatFrom >= legs.size() || !(period > 0.0)) return stops[legs.empty() ? 0 : legs.back().to];
            t = std::fmod(t, period); // the repeating legs once more, from their start
            i = repeatFrom;
        }
        const Leg& l = legs[i];
        if (t < l.moveSeconds) return stops[l.from] + (stops[l.to] - stops[l.from]) * (t / l.moveSeconds);
        t -= l.moveSeconds;
        if (l.waitSeconds < 0.0) return stops[l.to];
        if (t < l.waitSeconds) return stops[l.to];
        t -= l.waitSeconds;
    }
}

} // namespace shallot
