// The full flow of core/portal/potentially_visible_set.cpp against a straightforward one
// written here (a fresh winding per cut, every separating plane found again for every
// portal tested, the flows of a wave in order): computePvs finds the separating planes once
// per step, keeps per-depth storage and starts each wave with its largest flows, which must
// change no bit of any set, on any number of threads. The reference repeats the method of
// potentially_visible_set.h with the same arithmetic in the same order, tolerances and
// waves, so the two must agree exactly.
#include "compile/compiler.h"
#include "portal/portal_flow.h"
#include "portal/portal_generation.h"
#include "portal/potentially_visible_set.h"
#include "portal/reachability.h"
#include "nav_helpers.h"
#include "random_world.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>

using namespace shallot;
using namespace shallot::test;

namespace {

// potentially_visible_set.cpp's tolerances and wave size.
constexpr double kSeparatorOnPlane = 1e-4;
constexpr double kPvsOnPlane = 1e-4;
constexpr size_t kFlowWave = 64;

using Winding = std::vector<Vec3>;
using Bits = std::vector<bool>;

Winding clipped(const Winding& w, const Vec3& n, double dist, double slack) {
    std::vector<double> d(w.size());
    bool anyBack = false, anyFront = false;
    for (size_t i = 0; i < w.size(); ++i) {
        d[i] = n.dot(w[i]) - dist + slack;
        anyBack |= d[i] < 0.0;
        anyFront |= d[i] >= 0.0;
    }
    if (!anyBack) return w;
    Winding out;
    if (!anyFront) return out;
    for (size_t i = 0; i < w.size(); ++i) {
        const size_t j = (i + 1) % w.size();
        if (d[i] >= 0.0) out.push_back(w[i]);
        if ((d[i] >= 0.0) != (d[j] >= 0.0)) out.push_back(w[i] + d[i] / (d[i] - d[j]) * (w[j] - w[i]));
    }
    if (out.size() < 3) out.clear();
    return out;
}

bool partlyInFront(const Winding& w, const Plane& p) {
    return std::any_of(w.begin(), w.end(), [&](const Vec3& v) { return p.signedDistance(v) > kPvsOnPlane; });
}

// Every separating plane through an edge of `source` and a vertex of `pass` cuts `target`.
bool separate(const Winding& source, const Winding& pass, Winding& target, bool flip) {
    for (size_t i = 0; i < source.size(); ++i) {
        const Vec3& a = source[i];
        const Vec3 edge = source[(i + 1) % source.size()] - a;
        for (const Vec3& c : pass) {
            Vec3 n = edge.cross(c - a);
            const double length2 = n.squaredNorm();
            if (!(length2 > 1e-24)) continue;
            const double on = kSeparatorOnPlane * std::sqrt(length2);
            double dist = n.dot(a);
            int side = 0;
            for (const Vec3& v : source) {
                const double d = n.dot(v) - dist;
                if (d > on || d < -on) {
                    side = d > on ? 1 : -1;
                    break;
                }
            }
            if (side == 0) continue;
            if (side == 1) n = -n, dist = -dist;
            bool separates = true, anyFront = false;
            for (const Vec3& v : pass) {
                const double d = n.dot(v) - dist;
                separates &= d >= -on;
                anyFront |= d > on;
            }
            if (!separates || !anyFront) continue;
            if (flip) n = -n, dist = -dist;
            target = clipped(target, n, dist, kPvsClipMargin * std::sqrt(length2));
            if (target.empty()) return false;
        }
    }
    return true;
}

struct OneWay {
    Plane plane;
    int32_t from, into;
    Winding winding;
};

struct Reference {
    std::vector<OneWay> portals;
    std::vector<std::vector<int32_t>> leaving;
    std::vector<Bits> might, seen;
    std::vector<bool> done;
    // Waves by key (PvsSettings::localWaves): per portal its wave, as wavesByKey gives it;
    // empty: waves by size.
    std::vector<uint32_t> keyWave;

    Bits baseFlow(int32_t source) const {
        const OneWay& p = portals[size_t(source)];
        Bits out(portals.size()), leafSeen(leaving.size());
        std::vector<int32_t> stack{p.into};
        leafSeen[size_t(p.into)] = true;
        while (!stack.empty()) {
            const int32_t leaf = stack.back();
            stack.pop_back();
            for (const int32_t q : leaving[size_t(leaf)]) {
                const OneWay& o = portals[size_t(q)];
                if (q == (source ^ 1) || out[size_t(q)] || !partlyInFront(o.winding, p.plane) ||
                    !partlyInFront(p.winding, o.plane.flipped()))
                    continue;
                out[size_t(q)] = true;
                if (!leafSeen[size_t(o.into)]) leafSeen[size_t(o.into)] = true, stack.push_back(o.into);
            }
        }
        return out;
    }

    void walk(int32_t source, int32_t leaf, const Winding& from, const Winding* pass, const Bits& mightHere,
              Bits& onPath, Bits& out) const {
        onPath[size_t(leaf)] = true;
        const Plane& sourcePlane = portals[size_t(source)].plane;
        for (const int32_t q : leaving[size_t(leaf)]) {
            const OneWay& o = portals[size_t(q)];
            if (!mightHere[size_t(q)] || onPath[size_t(o.into)]) continue;
            const bool qDone = keyWave.empty() ? bool(done[size_t(q)]) : keyWave[size_t(q)] < keyWave[size_t(source)];
            const Bits& qMight = qDone ? seen[size_t(q)] : might[size_t(q)];
            Bits next(portals.size());
            bool more = false;
            for (size_t i = 0; i < next.size(); ++i) {
                next[i] = mightHere[i] && qMight[i];
                more |= next[i] && !out[i];
            }
            if (!more && out[size_t(q)]) continue;
            const Plane behindQ = o.plane.flipped();
            if (!partlyInFront(o.winding, sourcePlane) || !partlyInFront(from, behindQ)) continue;
            Winding through = clipped(o.winding, sourcePlane.normal, sourcePlane.dist, kPvsClipMargin);
            if (through.empty()) continue;
            const Winding cut = clipped(from, behindQ.normal, behindQ.dist, kPvsClipMargin);
            if (cut.empty()) continue;
            if (pass && (!separate(cut, *pass, through, false) || !separate(*pass, cut, through, true))) continue;
            out[size_t(q)] = true;
            walk(source, o.into, cut, &through, next, onPath, out);
        }
        onPath[size_t(leaf)] = false;
    }

    // The one-way portals' flows, smallest base sets first, in waves.
    void flow() {
        const size_t n = portals.size();
        for (size_t i = 0; i < n; ++i) might.push_back(baseFlow(int32_t(i)));
        std::vector<std::pair<size_t, int32_t>> order;
        for (size_t i = 0; i < n; ++i) order.push_back({size_t(std::count(might[i].begin(), might[i].end(), true)), int32_t(i)});
        std::sort(order.begin(), order.end());
        seen.assign(n, Bits(n));
        done.assign(n, false);
        const auto flowOf = [&](int32_t i) {
            Bits onPath(leaving.size());
            onPath[size_t(portals[size_t(i)].from)] = true;
            walk(i, portals[size_t(i)].into, portals[size_t(i)].winding, nullptr, might[size_t(i)], onPath, seen[size_t(i)]);
        };
        if (!keyWave.empty()) {
            const uint32_t waves = *std::max_element(keyWave.begin(), keyWave.end()) + 1;
            for (uint32_t wave = 0; wave < waves; ++wave)
                for (size_t i = 0; i < n; ++i)
                    if (keyWave[i] == wave) flowOf(int32_t(i));
            return;
        }
        for (size_t wave = 0; wave < n; wave += kFlowWave) {
            const size_t end = std::min(n, wave + kFlowWave);
            for (size_t k = wave; k < end; ++k) {
                const int32_t i = order[k].second;
                Bits onPath(leaving.size());
                onPath[size_t(portals[size_t(i)].from)] = true;
                walk(i, portals[size_t(i)].into, portals[size_t(i)].winding, nullptr, might[size_t(i)], onPath,
                     seen[size_t(i)]);
            }
            for (size_t k = wave; k < end; ++k) done[size_t(order[k].second)] = true;
        }
    }
};

PotentiallyVisibleSet referencePvs(const BspTree& tree, bool localWaves = false, std::vector<Bits>* seen = nullptr) {
    const std::vector<bool> outside = reachableFromOutside(tree, 0);
    Reference r;
    if (localWaves) r.keyWave = wavesByKey(oneWayPortals(tree, 0, outside)).waveOf;
    r.leaving.resize(tree.leafCount());
    for (size_t i = 0; i < tree.portals.size(); ++i) {
        const Portal& p = tree.portals[i];
        if (!(p.poses & 1u) || outside[size_t(p.front)] || outside[size_t(p.back)]) continue;
        const std::span<const Vec3> v = tree.portals.vertices(i);
        const Plane& plane = tree.planes[size_t(p.plane)];
        r.leaving[size_t(p.back)].push_back(int32_t(r.portals.size()));
        r.portals.push_back({plane, p.back, p.front, Winding(v.begin(), v.end())});
        r.leaving[size_t(p.front)].push_back(int32_t(r.portals.size()));
        r.portals.push_back({plane.flipped(), p.front, p.back, Winding(v.rbegin(), v.rend())});
    }
    r.flow();
    if (seen) *seen = r.seen;
    PotentiallyVisibleSet pvs(tree.leafCount());
    for (size_t leaf = 0; leaf < tree.leafCount(); ++leaf) {
        if (tree.leafSolid[leaf] & 1u) continue;
        if (outside[leaf]) {
            for (size_t other = 0; other < tree.leafCount(); ++other)
                if (outside[other]) pvs.set(int32_t(leaf), int32_t(other));
            continue;
        }
        pvs.set(int32_t(leaf), int32_t(leaf));
        for (const int32_t p : r.leaving[leaf]) {
            pvs.set(int32_t(leaf), r.portals[size_t(p)].into);
            for (size_t q = 0; q < r.portals.size(); ++q)
                if (r.seen[size_t(p)][q]) pvs.set(int32_t(leaf), r.portals[q].into);
        }
    }
    // A pair is visible when each sees the other.
    PotentiallyVisibleSet bothWays(tree.leafCount());
    for (size_t a = 0; a < tree.leafCount(); ++a)
        for (const int32_t b : pvs.leavesFrom(int32_t(a)))
            if (pvs.visible(b, int32_t(a))) bothWays.set(int32_t(a), b);
    return bothWays;
}

} // namespace

// Random rooms of 8 brushes (more than one wave of flows each), the sight pose's map tree:
// computePvs on one and on three threads gives the reference's sets bit for bit.
TEST(PvsFlowReference, FullFlowEqualsTheStraightforwardOne) {
    Rng rng(3990);
    size_t visible = 0;
    for (int room = 0; room < 3; ++room) {
        SCOPED_TRACE(room);
        std::vector<Brush> inside = randomRoomBrushes(rng);
        inside.resize(8);
        const World w = navRoom(std::move(inside));
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        BspTree map = r.mapTrees[0];
        map.portals = generatePortals(map);
        const PotentiallyVisibleSet expected = referencePvs(map);
        for (const int threads : {1, 3}) {
            PvsSettings settings;
            settings.threads = threads;
            PvsStats stats;
            EXPECT_TRUE(computePvs(map, settings, &stats) == expected) << threads << " threads";
            EXPECT_GT(stats.oneWayPortals, 2 * kFlowWave); // several waves: earlier flows narrow later ones
        }
        for (size_t leaf = 0; leaf < expected.leafCount(); ++leaf) visible += expected.countFrom(int32_t(leaf));
    }
    EXPECT_GT(visible, 0u);
}

// The same with waves by key (PvsSettings::localWaves, what the editor's updates need), and
// every one-way portal's final set the same as the reference's; those sets differ from the
// ones of waves by size, so the test tells the two kinds of waves apart.
TEST(PvsFlowReference, FullFlowByKeyEqualsTheStraightforwardOne) {
    Rng rng(3991);
    bool differs = false;
    for (int room = 0; room < 2; ++room) {
        SCOPED_TRACE(room);
        std::vector<Brush> inside = randomRoomBrushes(rng);
        inside.resize(8);
        const World w = navRoom(std::move(inside));
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        BspTree map = r.mapTrees[0];
        map.portals = generatePortals(map);
        std::vector<Bits> byKey, bySize;
        const PotentiallyVisibleSet expected = referencePvs(map, true, &byKey);
        referencePvs(map, false, &bySize);
        differs |= byKey != bySize;
        for (const int threads : {1, 3}) {
            PvsSettings settings;
            settings.localWaves = true;
            settings.threads = threads;
            PvsFlowRecord record;
            EXPECT_TRUE(computePvs(map, settings, nullptr, &record) == expected) << threads << " threads";
            ASSERT_EQ(record.seen.size(), byKey.size());
            for (size_t p = 0; p < byKey.size(); ++p)
                for (size_t q = 0; q < byKey.size(); ++q) ASSERT_EQ(testBit(record.seen[p], q), bool(byKey[p][q])) << p << " " << q;
        }
    }
    EXPECT_TRUE(differs);
}
