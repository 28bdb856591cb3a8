#include "portal/portal_flow.h"

#include "portal/potentially_visible_set.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <deque>
#include <utility>

namespace shallot {

namespace {


// A separating plane must leave every point of one winding behind it and every point of
// the other in front; a point this close to it counts as on it (either side). Smaller
// than kPvsClipMargin, so a plane accepted with a point on it cuts nothing the margin
// does not give back.
constexpr double kSeparatorOnPlane = 1e-4;
// A winding within this of a plane lies in it (rounding of portal vertices, ~1e-11, and of
// pooled planes); one that is not, but within this in front of it, would be seen only by
// segments grazing a wall at less than a ten-thousandth of a unit.
constexpr double kPvsOnPlane = 1e-4;

using Winding = std::vector<Vec3>;

// Flows run in waves of this many by size (wavesBySize); a wave sees the results of the
// waves before it.
constexpr size_t kFlowWave = 64;
// Waves by key: the top bits of a portal's key pick its wave, 1 << kKeyWaveBits of them
// (about 23 portals a wave on id_e1m1): a portal is narrowed by the final sets of about
// as many portals as in waves by size, and each wave still has work for a few threads.
constexpr int kKeyWaveBits = 8;


// Cuts `w` to its part in front of {x : n . x >= dist}, with `slack` (in units of n's
// length) kept behind it; `scratch` is reused storage. Empty when nothing is left; returns
// whether anything was cut off.
bool clipToFront(Winding& w, const Vec3& n, double dist, double slack, Winding& scratch) {
    const size_t count = w.size();
    double d[64];
    std::vector<double> big;
    double* dists = d;
    if (count > 64) {
        big.resize(count);
        dists = big.data();
    }
    bool anyBack = false, anyFront = false;
    for (size_t i = 0; i < count; ++i) {
        dists[i] = n.dot(w[i]) - dist + slack;
        anyBack |= dists[i] < 0.0;
        anyFront |= dists[i] >= 0.0;
    }
    if (!anyBack) return false;
    if (!anyFront) {
        w.clear();
        return true;
    }
    scratch.clear();
    for (size_t i = 0; i < count; ++i) {
        const size_t j = i + 1 == count ? 0 : i + 1;
        if (dists[i] >= 0.0) scratch.push_back(w[i]);
        if ((dists[i] >= 0.0) != (dists[j] >= 0.0)) scratch.push_back(w[i] + dists[i] / (dists[i] - dists[j]) * (w[j] - w[i]));
    }
    if (scratch.size() < 3) scratch.clear();
    std::swap(w, scratch);
    return true;
}
// Whether some point of `w` is in front of `plane` by more than kPvsOnPlane. A winding
// lying in the plane is not: a segment crosses a portal's plane once, at the portal, so
// nothing seen through it lies in its plane (and many portals share a plane: walking
// along it is most of the work otherwise).
bool partlyInFront(const Winding& w, const Plane& plane) {
    return std::any_of(w.begin(), w.end(), [&](const Vec3& v) { return plane.signedDistance(v) > kPvsOnPlane; });
}

// FNV-1a over the bytes of one value.
uint64_t hashed(uint64_t h, const void* data, size_t size) {
    const unsigned char* bytes = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
    return h;
}

uint64_t geometryKey(const Plane& plane, const Winding& winding) {
    uint64_t h = 0xcbf29ce484222325ull;
    h = hashed(h, plane.normal.data(), 3 * sizeof(double));
    h = hashed(h, &plane.dist, sizeof(double));
    for (const Vec3& v : winding) h = hashed(h, v.data(), 3 * sizeof(double));
    // Mixed (splitmix64's finaliser) so that the top bits, which pick the wave, are spread.
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

size_t countOf(const PvsBits& b) {
    size_t n = 0;
    for (const uint64_t w : b) n += size_t(std::popcount(w));
    return n;
}


// The separating planes through an edge of `source` and a vertex of `pass`, with `source`
// behind and `pass` in front (flipped when `flip`), found as far as a target needs them:
// they depend on source and pass alone, so every portal tested in one step of the walk
// whose plane leaves the source whole reuses the planes the ones before it found. The
// planes' normals are left unnormalised: the tolerances are scaled by their length instead.
class Separators {
public:
    void reset(const Winding& source, const Winding& pass, bool flip) {
        source_ = &source;
        pass_ = &pass;
        flip_ = flip;
        edge_ = 0;
        vertex_ = 0;
        planes_.clear();
    }

    // Cuts `target` to the front of every plane; false when nothing of it is left.
    bool clip(Winding& target, Winding& scratch) {
        for (size_t k = 0;; ++k) {
            if (k == planes_.size() && !findNext()) return true;
            const Cut& cut = planes_[k];
            clipToFront(target, cut.normal, cut.dist, cut.slack, scratch);
            if (target.empty()) return false;
        }
    }

private:
    struct Cut {
        Vec3 normal;
        double dist, slack;
    };

    // Appends the next separating plane; false when there is none left.
    bool findNext() {
        const Winding& source = *source_;
        const Winding& pass = *pass_;
        for (; edge_ < source.size(); ++edge_, vertex_ = 0) {
            const Vec3& a = source[edge_];
            const Vec3 edge = source[edge_ + 1 == source.size() ? 0 : edge_ + 1] - a;
            while (vertex_ < pass.size()) {
                const Vec3& c = pass[vertex_++];
                Vec3 normal = edge.cross(c - a);
                const double length2 = normal.squaredNorm();
                if (!(length2 > 1e-24)) continue;
                const double onPlane = kSeparatorOnPlane * std::sqrt(length2);
                double dist = normal.dot(a);
                // Source behind: flip the plane if a source point is in front of it.
                int side = 0;
                for (const Vec3& v : source) {
                    const double d = normal.dot(v) - dist;
                    if (d > onPlane) { side = 1; break; }
                    if (d < -onPlane) { side = -1; break; }
                }
                if (side == 0) continue; // the source lies in the plane: it separates nothing
                if (side == 1) normal = -normal, dist = -dist;
                // Pass in front: no pass point behind, and not all of it on the plane. The
                // pass is convex: unless the plane rests on it at c, a neighbour of c is
                // behind it, so the neighbours are tested first.
                const auto behind = [&](size_t j) { return normal.dot(pass[j]) - dist < -onPlane; };
                const size_t n = pass.size(); // vertex_ - 1 is c's index
                if (behind(vertex_ == n ? 0 : vertex_) || behind(vertex_ == 1 ? n - 1 : vertex_ - 2)) continue;
                bool separates = true, anyFront = false;
                for (const Vec3& v : pass) {
                    const double d = normal.dot(v) - dist;
                    if (d < -onPlane) { separates = false; break; }
                    anyFront |= d > onPlane;
                }
                if (!separates || !anyFront) continue;
                if (flip_) normal = -normal, dist = -dist;
                planes_.push_back({normal, dist, kPvsClipMargin * std::sqrt(length2)});
                return true;
            }
        }
        return false;
    }

    const Winding* source_ = nullptr;
    const Winding* pass_ = nullptr;
    bool flip_ = false;
    size_t edge_ = 0, vertex_ = 0; // the next candidate: an edge of the source, a vertex of the pass
    std::vector<Cut> planes_;
};

class Flow {
public:
    Flow(const OneWayPortals& all, const std::vector<PvsBits>& might, const std::vector<PvsBits>& final,
         const std::vector<uint32_t>& waveOf, int32_t source)
        : all_(all), might_(might), final_(final), waveOf_(waveOf), source_(source), onPath_((all.leaving.size() + 63) / 64, 0),
          seen_(might[size_t(source)].size(), 0) {}

    PvsBits run() {
        const OneWayPortal& p = all_.portals[size_t(source_)];
        setBit(onPath_, size_t(p.from));
        const PvsBits& might = might_[size_t(source_)];
        walk(0, p.into, p.winding, nullptr, might, trimmed(might, {0, might.size()}));
        return std::move(seen_);
    }

private:
    // What one depth of the walk keeps for the portal it is testing, reused by every step
    // at that depth so that the walk allocates nothing once it has been that deep.
    struct Step {
        Winding from, through;
        PvsBits next;
        Separators ahead, behind;       // of the step's source and pass
        Separators aheadCut, behindCut; // of the source cut by the portal's plane, and the pass
    };

    // The words of a set from the first to the last that is not zero: the sets narrow along
    // a walk, and on a large level most of their words are zero.
    struct Words {
        size_t begin, end;
    };
    static Words trimmed(const PvsBits& b, Words w) {
        while (w.begin < w.end && !b[w.begin]) ++w.begin;
        while (w.end > w.begin && !b[w.end - 1]) --w.end;
        return w;
    }

    // `might` is zero outside `words`.
    void walk(size_t depth, int32_t leaf, const Winding& source, const Winding* pass, const PvsBits& might, Words words) {
        // A segment crosses a convex leaf once: a leaf already on the path is not entered again.
        setBit(onPath_, size_t(leaf));
        if (steps_.size() == depth) steps_.emplace_back(); // a deque: the steps above keep their place
        Step& step = steps_[depth];
        step.next.resize(might.size());
        if (pass) {
            step.ahead.reset(source, *pass, false);
            step.behind.reset(*pass, source, true);
        }
        const Plane& sourcePlane = all_.portals[size_t(source_)].plane;
        for (const int32_t q : all_.leaving[size_t(leaf)]) {
            if (size_t(q) / 64 < words.begin || size_t(q) / 64 >= words.end || !testBit(might, size_t(q))) continue;
            const OneWayPortal& portal = all_.portals[size_t(q)];
            if (testBit(onPath_, size_t(portal.into))) continue;
            // Portals whose flow is done (in an earlier wave) narrow the walk with what they
            // saw, not what they might see (as Quake's vis does).
            const PvsBits& qMight = waveOf_[size_t(q)] < waveOf_[size_t(source_)] ? final_[size_t(q)] : might_[size_t(q)];
            if (testBit(seen_, size_t(q)) && !anyNew(might, qMight, words)) continue; // nothing new beyond it
            // Q beyond the source's plane, the source before Q's (neither lying in the other's plane).
            const Plane behindQ = portal.plane.flipped();
            if (!partlyInFront(portal.winding, sourcePlane) || !partlyInFront(source, behindQ)) continue;
            step.through = portal.winding;
            clipToFront(step.through, sourcePlane.normal, sourcePlane.dist, kPvsClipMargin, scratch_);
            if (step.through.empty()) continue;
            step.from = source;
            const bool sourceCut = clipToFront(step.from, behindQ.normal, behindQ.dist, kPvsClipMargin, scratch_);
            if (step.from.empty()) continue;
            if (pass) {
                Separators* ahead = &step.ahead;
                Separators* behind = &step.behind;
                if (sourceCut) {
                    step.aheadCut.reset(step.from, *pass, false);
                    step.behindCut.reset(*pass, step.from, true);
                    ahead = &step.aheadCut;
                    behind = &step.behindCut;
                }
                if (!ahead->clip(step.through, scratch_) || !behind->clip(step.through, scratch_)) continue;
            }
            setBit(seen_, size_t(q));
            for (size_t w = words.begin; w < words.end; ++w) step.next[w] = might[w] & qMight[w];
            walk(depth + 1, portal.into, step.from, &step.through, step.next, trimmed(step.next, words));
        }
        onPath_[size_t(leaf) / 64] &= ~(uint64_t(1) << (size_t(leaf) % 64));
    }

    // Whether a portal both might see is not seen yet.
    bool anyNew(const PvsBits& a, const PvsBits& b, Words words) const {
        for (size_t w = words.begin; w < words.end; ++w)
            if (a[w] & b[w] & ~seen_[w]) return true;
        return false;
    }

    const OneWayPortals& all_;
    const std::vector<PvsBits>& might_;
    const std::vector<PvsBits>& final_;
    const std::vector<uint32_t>& waveOf_;
    int32_t source_;
    PvsBits onPath_; // leaves on the current path
    PvsBits seen_;
    std::deque<Step> steps_; // per depth of the walk
    Winding scratch_;        // clipToFront's storage, shared by the whole walk
};

} // namespace

bool sameGeometry(const OneWayPortal& a, const OneWayPortal& b) {
    const auto bits = [](const Vec3& v, const Vec3& w) { return std::memcmp(v.data(), w.data(), 3 * sizeof(double)) == 0; };
    if (a.key != b.key || a.winding.size() != b.winding.size() || !bits(a.plane.normal, b.plane.normal) ||
        std::memcmp(&a.plane.dist, &b.plane.dist, sizeof(double)) != 0)
        return false;
    for (size_t i = 0; i < a.winding.size(); ++i)
        if (!bits(a.winding[i], b.winding[i])) return false;
    return true;
}


OneWayPortals oneWayPortals(const BspTree& tree, int pose, const std::vector<bool>& outside) {
    OneWayPortals out;
    out.leaving.resize(tree.leafCount());
    for (size_t i = 0; i < tree.portals.size(); ++i) {
        const Portal& p = tree.portals[i];
        if (!((p.poses >> pose) & 1u) || outside[size_t(p.front)] || outside[size_t(p.back)]) continue;
        const std::span<const Vec3> v = tree.portals.vertices(i);
        Winding forward(v.begin(), v.end());
        Winding backward(v.rbegin(), v.rend());
        const Plane& plane = tree.planes[size_t(p.plane)];
        const uint64_t forwardKey = geometryKey(plane, forward), backwardKey = geometryKey(plane.flipped(), backward);
        // The portal's plane faces the front leaf: back -> front goes along it.
        out.leaving[size_t(p.back)].push_back(int32_t(out.portals.size()));
        out.portals.push_back({plane, p.back, p.front, std::move(forward), forwardKey});
        out.leaving[size_t(p.front)].push_back(int32_t(out.portals.size()));
        out.portals.push_back({plane.flipped(), p.front, p.back, std::move(backward), backwardKey});
    }
    return out;
}

PvsBits baseFlow(const OneWayPortals& all, int32_t source) {
    const OneWayPortal& p = all.portals[size_t(source)];
    const size_t n = all.portals.size();
    PvsBits might((n + 63) / 64, 0);
    PvsBits leafSeen((all.leaving.size() + 63) / 64, 0);
    std::vector<int32_t> stack{p.into};
    setBit(leafSeen, size_t(p.into));
    while (!stack.empty()) {
        const int32_t leaf = stack.back();
        stack.pop_back();
        for (const int32_t q : all.leaving[size_t(leaf)]) {
            const OneWayPortal& portal = all.portals[size_t(q)];
            if (q == (source ^ 1)) continue; // straight back through P (one-way portals come in pairs)
            if (testBit(might, size_t(q))) continue;
            // Q beyond P's plane, and P before Q's plane (so Q faces away from some point of P).
            if (!partlyInFront(portal.winding, p.plane)) continue;
            if (!partlyInFront(p.winding, portal.plane.flipped())) continue;
            setBit(might, size_t(q));
            if (!testBit(leafSeen, size_t(portal.into))) {
                setBit(leafSeen, size_t(portal.into));
                stack.push_back(portal.into);
            }
        }
    }
    return might;
}

FlowWaves wavesBySize(const std::vector<PvsBits>& might) {
    const size_t n = might.size();
    std::vector<std::pair<size_t, int32_t>> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = {countOf(might[i]), int32_t(i)};
    std::sort(order.begin(), order.end());
    FlowWaves out;
    out.waveOf.resize(n);
    for (size_t wave = 0; wave < n; wave += kFlowWave) {
        const size_t end = std::min(n, wave + kFlowWave);
        out.waves.emplace_back();
        // Largest first, so that no thread is left with a long flow at the wave's end.
        for (size_t k = end; k-- > wave;) {
            out.waves.back().push_back(order[k].second);
            out.waveOf[size_t(order[k].second)] = uint32_t(out.waves.size() - 1);
        }
    }
    return out;
}

FlowWaves wavesByKey(const OneWayPortals& all) {
    FlowWaves out;
    out.waves.resize(size_t(1) << kKeyWaveBits);
    out.waveOf.resize(all.portals.size());
    for (size_t i = 0; i < all.portals.size(); ++i) {
        out.waveOf[i] = uint32_t(all.portals[i].key >> (64 - kKeyWaveBits));
        out.waves[out.waveOf[i]].push_back(int32_t(i));
    }
    return out;
}

PvsBits fullFlow(const OneWayPortals& all, const std::vector<PvsBits>& might, const std::vector<PvsBits>& seen,
                 const std::vector<uint32_t>& waveOf, int32_t source) {
    return Flow(all, might, seen, waveOf, source).run();
}

} // namespace shallot
