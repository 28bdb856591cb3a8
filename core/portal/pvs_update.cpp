#include "portal/pvs_update.h"

#include "compile/parallel_for.h"
#include "compile/stopwatch.h"
#include "portal/reachability.h"

#include <algorithm>
#include <bit>
#include <utility>

namespace shallot {

namespace {

// Calls f(i) for every set bit i of `bits`.
template <class F>
void forEachBit(const PvsBits& bits, const F& f) {
    for (size_t w = 0; w < bits.size(); ++w)
        for (uint64_t b = bits[w]; b; b &= b - 1) f(w * 64 + size_t(std::countr_zero(b)));
}

// The one-way portals before and now with the same plane and vertices, bit for bit.
struct PortalMatch {
    std::vector<int32_t> oldOfNew, newOfOld; // -1: none
};

PortalMatch matchPortals(const OneWayPortals& before, const OneWayPortals& now) {
    PortalMatch m{std::vector<int32_t>(now.portals.size(), -1), std::vector<int32_t>(before.portals.size(), -1)};
    std::vector<std::pair<uint64_t, int32_t>> byKey(before.portals.size());
    for (size_t i = 0; i < before.portals.size(); ++i) byKey[i] = {before.portals[i].key, int32_t(i)};
    std::sort(byKey.begin(), byKey.end());
    for (size_t i = 0; i < now.portals.size(); ++i) {
        const OneWayPortal& p = now.portals[i];
        auto it = std::lower_bound(byKey.begin(), byKey.end(), std::pair<uint64_t, int32_t>{p.key, -1});
        int32_t found = -1, count = 0;
        for (; it != byKey.end() && it->first == p.key; ++it)
            if (sameGeometry(p, before.portals[size_t(it->second)])) found = it->second, ++count;
        // Two portals with one geometry (never in a valid tree) match nothing.
        if (count != 1 || m.newOfOld[size_t(found)] >= 0) continue;
        m.oldOfNew[i] = found;
        m.newOfOld[size_t(found)] = int32_t(i);
    }
    return m;
}

// Per leaf before, the leaf now with the same one-way portals out of it (matched), or -1.
std::vector<int32_t> matchLeaves(const OneWayPortals& before, const OneWayPortals& now, const PortalMatch& m) {
    std::vector<int32_t> newOfOld(before.leaving.size(), -1);
    for (size_t leaf = 0; leaf < now.leaving.size(); ++leaf) {
        const std::vector<int32_t>& out = now.leaving[leaf];
        if (out.empty()) continue;
        int32_t old = -1;
        bool same = true;
        for (const int32_t q : out) {
            const int32_t q0 = m.oldOfNew[size_t(q)];
            if (q0 < 0 || (old >= 0 && before.portals[size_t(q0)].from != old)) {
                same = false;
                break;
            }
            old = before.portals[size_t(q0)].from;
        }
        if (same && before.leaving[size_t(old)].size() == out.size()) newOfOld[size_t(old)] = int32_t(leaf);
    }
    return newOfOld;
}

PvsBits remapped(const PvsBits& old, const std::vector<int32_t>& newOfOld, size_t count) {
    PvsBits out((count + 63) / 64, 0);
    forEachBit(old, [&](size_t y) { setBit(out, size_t(newOfOld[y])); });
    return out;
}

// The new portals where `now` differs from `before` (in the old numbering).
std::vector<int32_t> difference(const PvsBits& now, const PvsBits& before, const PortalMatch& m) {
    std::vector<int32_t> out;
    forEachBit(now, [&](size_t x) {
        const int32_t y = m.oldOfNew[x];
        if (y < 0 || !testBit(before, size_t(y))) out.push_back(int32_t(x));
    });
    forEachBit(before, [&](size_t y) {
        const int32_t x = m.newOfOld[y];
        if (x >= 0 && !testBit(now, size_t(x))) out.push_back(x);
    });
    return out;
}

bool intersect(const PvsBits& a, const PvsBits& b) {
    for (size_t w = 0; w < a.size(); ++w)
        if (a[w] & b[w]) return true;
    return false;
}

// The leaves a flow (full or base) of an old portal p0 with set `set0` entered: the leaf p0
// leads into and those its set leads into. Word by word: per old portal, whether it leads
// into a leaf not kept, and into a kept leaf that a changed set's portal leaves.
class Updater {
public:
    Updater(const PvsFlowRecord& before, const OneWayPortals& now, const PortalMatch& m,
            const std::vector<int32_t>& leafNewOfOld)
        : before_(before), now_(now), m_(m), leafNewOfOld_(leafNewOfOld), leafOldOfNew_(now.leaving.size(), -1),
          touched_(before.portals.leaving.size(), 0), intoLost_((before.portals.portals.size() + 63) / 64, 0),
          intoTouched_(intoLost_.size(), 0) {
        for (size_t leaf0 = 0; leaf0 < leafNewOfOld.size(); ++leaf0)
            if (leafNewOfOld[leaf0] >= 0) leafOldOfNew_[size_t(leafNewOfOld[leaf0])] = int32_t(leaf0);
        for (size_t y = 0; y < before.portals.portals.size(); ++y)
            if (leafNewOfOld[size_t(before.portals.portals[y].into)] < 0) setBit(intoLost_, y);
    }

    // Whether every leaf the flow entered is kept.
    bool kept(int32_t p0, const PvsBits& set0) const {
        return leafNewOfOld_[size_t(before_.portals.portals[size_t(p0)].into)] >= 0 && !intersect(set0, intoLost_);
    }

    // Whether a portal leaving one of those leaves (all kept) is in a changed set (touch).
    bool readsChanged(int32_t p0, const PvsBits& set0) const {
        return touched_[size_t(before_.portals.portals[size_t(p0)].into)] || intersect(set0, intoTouched_);
    }

    // The portals now leaving those leaves (all kept).
    void leaving(int32_t p0, const PvsBits& set0, PvsBits& out) const {
        out.assign((now_.portals.size() + 63) / 64, 0);
        const auto enter = [&](int32_t leaf0) {
            for (const int32_t q : now_.leaving[size_t(leafNewOfOld_[size_t(leaf0)])]) setBit(out, size_t(q));
        };
        enter(before_.portals.portals[size_t(p0)].into);
        forEachBit(set0, [&](size_t y) { enter(before_.portals.portals[y].into); });
    }

    // Portal x (now) is in a set that differs from before.
    void touch(int32_t x) {
        const int32_t leaf0 = leafOldOfNew_[size_t(now_.portals[size_t(x)].from)];
        if (leaf0 < 0 || touched_[size_t(leaf0)]) return; // a leaf not kept: no kept flow entered it
        touched_[size_t(leaf0)] = 1;
        for (const int32_t out : before_.portals.leaving[size_t(leaf0)]) setBit(intoTouched_, size_t(out ^ 1));
    }

    // Whether portal p (now) and its way back are the old ones, from and into kept leaves.
    int32_t keptPortal(int32_t p) const {
        const int32_t p0 = m_.oldOfNew[size_t(p)];
        if (p0 < 0 || m_.oldOfNew[size_t(p ^ 1)] != (p0 ^ 1)) return -1;
        const OneWayPortal& old = before_.portals.portals[size_t(p0)];
        return leafNewOfOld_[size_t(old.from)] >= 0 && leafNewOfOld_[size_t(old.into)] >= 0 ? p0 : -1;
    }

private:
    const PvsFlowRecord& before_;
    const OneWayPortals& now_;
    const PortalMatch& m_;
    const std::vector<int32_t>& leafNewOfOld_;
    std::vector<int32_t> leafOldOfNew_;
    std::vector<char> touched_; // per old leaf
    PvsBits intoLost_, intoTouched_;
};

bool meets(const std::vector<int32_t>& list, const PvsBits& bits) {
    return std::any_of(list.begin(), list.end(), [&](int32_t x) { return testBit(bits, size_t(x)); });
}

// Passes of the provisional PVS's narrowing of base sets: the second takes id_e1m1's
// average from 164-180 leaves to 163-177 for a few milliseconds; a third changes little.
constexpr int kProvisionalPasses = 2;

// What an update computes after the base flows: the exact full flow, the base flow alone,
// or the provisional sets (provisionalPvs).
enum class UpdateKind { Full, Base, Provisional };

PotentiallyVisibleSet updateFlows(const PvsFlowRecord& previous, const BspTree& tree, const PvsSettings& settings,
                                  UpdateKind kind, PvsStats* stats, PvsFlowRecord* record, PvsUpdateStats* update) {
    PvsUpdateStats counts;
    PvsSettings asComputed = settings; // a full flow only when computed as one
    asComputed.fullFlow = kind == UpdateKind::Full;
    const bool flowsUsable =
        previous.fullFlow && previous.localWaves && settings.localWaves && previous.pose == settings.pose;
    if (previous.pose != settings.pose || (kind == UpdateKind::Full && !flowsUsable)) {
        counts.fromScratch = true;
        if (update) *update = counts;
        return computePvs(tree, asComputed, stats, record);
    }
    Stopwatch clock;
    std::vector<bool> outside = reachableFromOutside(tree, settings.pose);
    OneWayPortals now = oneWayPortals(tree, settings.pose, outside);
    const size_t n = now.portals.size();
    const PortalMatch m = matchPortals(previous.portals, now);
    const std::vector<int32_t> leafNewOfOld = matchLeaves(previous.portals, now, m);
    Updater updater(previous, now, m, leafNewOfOld);
    counts.portals = n;
    counts.matchedPortals = size_t(std::count_if(m.oldOfNew.begin(), m.oldOfNew.end(), [](int32_t x) { return x >= 0; }));
    counts.matchedLeaves = size_t(std::count_if(leafNewOfOld.begin(), leafNewOfOld.end(), [](int32_t x) { return x >= 0; }));

    // Base flows: kept where their flood's leaves are, the others flooded again, and where
    // those differ from before.
    std::vector<PvsBits> might(n);
    std::vector<char> baseKept(n, 0);
    std::vector<std::vector<int32_t>> baseChange(n);
    parallelFor(n, settings.threads, [&](size_t i) {
        throwIfCancelled(settings.cancel);
        const int32_t p0 = updater.keptPortal(int32_t(i));
        if (p0 >= 0 && updater.kept(p0, previous.might[size_t(p0)])) {
            might[i] = remapped(previous.might[size_t(p0)], m.newOfOld, n);
            baseKept[i] = 1;
            return;
        }
        might[i] = baseFlow(now, int32_t(i));
        if (m.oldOfNew[i] >= 0) baseChange[i] = difference(might[i], previous.might[size_t(m.oldOfNew[i])], m);
    });
    counts.baseFlowsKept = size_t(std::count(baseKept.begin(), baseKept.end(), 1));
    const double baseMs = clock.lapMs();

    // Every portal some set that may narrow a walk now holds differently from before.
    for (const std::vector<int32_t>& list : baseChange)
        for (const int32_t x : list) updater.touch(x);

    std::vector<PvsBits> seen(n);
    if (kind == UpdateKind::Full) {
        const FlowWaves waves = wavesByKey(now);
        std::vector<std::vector<int32_t>> finalChange(n);
        std::vector<char> flowKept(n, 0), throughTheEdit(n, 0);
        for (const std::vector<int32_t>& wave : waves.waves) {
            parallelFor(wave.size(), settings.threads, [&](size_t k) {
                throwIfCancelled(settings.cancel);
                const int32_t p = wave[k];
                const int32_t p0 = updater.keptPortal(p);
                bool keep = p0 >= 0 && updater.kept(p0, previous.seen[size_t(p0)]);
                if (!keep) throughTheEdit[size_t(p)] = 1;
                // The sets its walk reads, for the portals leaving those leaves: its base set,
                // and per portal there its final set (an earlier wave's) or its base set.
                if (keep && updater.readsChanged(p0, previous.seen[size_t(p0)])) {
                    PvsBits leaving;
                    updater.leaving(p0, previous.seen[size_t(p0)], leaving);
                    keep = !meets(baseChange[size_t(p)], leaving);
                    forEachBit(leaving, [&](size_t q) {
                        if (!keep) return;
                        const bool done = waves.waveOf[q] < waves.waveOf[size_t(p)];
                        keep = !meets(done ? finalChange[q] : baseChange[q], leaving);
                    });
                }
                if (keep) {
                    seen[size_t(p)] = remapped(previous.seen[size_t(p0)], m.newOfOld, n);
                    flowKept[size_t(p)] = 1;
                } else {
                    seen[size_t(p)] = fullFlow(now, might, seen, waves.waveOf, p);
                }
            });
            for (const int32_t p : wave) {
                const int32_t p0 = m.oldOfNew[size_t(p)];
                if (flowKept[size_t(p)] || p0 < 0) continue;
                finalChange[size_t(p)] = difference(seen[size_t(p)], previous.seen[size_t(p0)], m);
                for (const int32_t x : finalChange[size_t(p)]) updater.touch(x);
            }
        }
        counts.fullFlowsKept = size_t(std::count(flowKept.begin(), flowKept.end(), 1));
        counts.flowsThroughTheEdit = size_t(std::count(throughTheEdit.begin(), throughTheEdit.end(), 1));
        counts.flowsWithChangedSets = n - counts.fullFlowsKept - counts.flowsThroughTheEdit;
    } else if (kind == UpdateKind::Provisional && previous.fullFlow) {
        std::vector<char> flowKept(n, 0);
        parallelFor(n, settings.threads, [&](size_t i) {
            const int32_t p0 = updater.keptPortal(int32_t(i));
            flowKept[i] = p0 >= 0 && updater.kept(p0, previous.seen[size_t(p0)]);
            if (flowKept[i]) seen[i] = remapped(previous.seen[size_t(p0)], m.newOfOld, n);
        });
        // The base sets narrowed by the sets of the ways back: a segment through p and then q
        // passes back through q's way back and then p's, so q stays in p's set only where q's
        // way back's set holds p's way back. Every set of a pass holds what its portal sees,
        // so each pass narrows by the sets of the one before.
        for (size_t i = 0; i < n; ++i)
            if (!flowKept[i]) seen[i] = might[i];
        for (int pass = 0; pass < kProvisionalPasses; ++pass) {
            const std::vector<PvsBits> bound = seen;
            parallelFor(n, settings.threads, [&](size_t p) {
                if (flowKept[p]) return;
                forEachBit(bound[p], [&](size_t q) {
                    if (!testBit(bound[q ^ 1], p ^ 1)) seen[p][q / 64] &= ~(uint64_t(1) << (q % 64));
                });
            });
        }
        counts.fullFlowsKept = size_t(std::count(flowKept.begin(), flowKept.end(), 1));
        counts.flowsThroughTheEdit = n - counts.fullFlowsKept;
    } else {
        seen = might;
    }
    if (update) *update = counts;
    PvsFlowRecord flows{settings.pose, asComputed.fullFlow, settings.localWaves, std::move(outside),
                        std::move(now), std::move(might), std::move(seen)};
    return finishPvs(tree, asComputed, std::move(flows), baseMs, clock, stats, record);
}

} // namespace

PotentiallyVisibleSet updatePvs(const PvsFlowRecord& previous, const BspTree& tree, const PvsSettings& settings,
                                PvsStats* stats, PvsFlowRecord* record, PvsUpdateStats* update) {
    return updateFlows(previous, tree, settings, settings.fullFlow ? UpdateKind::Full : UpdateKind::Base, stats, record,
                       update);
}

PotentiallyVisibleSet provisionalPvs(const PvsFlowRecord& previous, const BspTree& tree, const PvsSettings& settings,
                                     PvsStats* stats, PvsFlowRecord* record, PvsUpdateStats* update) {
    return updateFlows(previous, tree, settings, UpdateKind::Provisional, stats, record, update);
}

} // namespace shallot
