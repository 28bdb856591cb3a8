#include "light/bounce.h"

#include "compile/parallel_for.h"
#include "compile/stopwatch.h"

#include <atomic>
#include <cmath>
#include <map>
#include <numbers>
#include <numeric>

namespace shallot {

namespace {

struct Patch {
    size_t face;
    int bi, bj;          // block of the face's luxel grid
    Vec3 centre = Vec3::Zero();
    Vec3 normal = Vec3::Zero();
    double area = 0;
    Vec3 direct = Vec3::Zero(); // unscaled light falling on it
};

int blocks(int luxels) { return (luxels + kBouncePatchLuxels - 1) / kBouncePatchLuxels; }

} // namespace

BounceStats addBounce(LevelLighting& lit, const LightOccluder& occluder, int bounces, int threads, const BouncePvs* pvs,
                      const CancelToken* cancel) {
    BounceStats stats;
    if (bounces <= 0) return stats;
    Stopwatch clock;
    const double range = lit.settings.rangescale > 0 ? lit.settings.rangescale : 1.0;
    std::vector<Patch> patches;
    std::vector<size_t> firstPatch(lit.faces.size() + 1, 0);
    for (size_t f = 0; f < lit.faces.size(); ++f) {
        firstPatch[f] = patches.size();
        const FaceLightmap& map = lit.lightmaps[f];
        if (map.styles.empty() || map.styles.front().style != 0 || map.samples.empty()) continue;
        const LuxelGrid& g = map.grid;
        const int bw = blocks(g.width()), bh = blocks(g.height());
        const double faceArea = lit.faces[f].polygon.area();
        for (int bj = 0; bj < bh; ++bj)
            for (int bi = 0; bi < bw; ++bi) {
                Patch p{f, bi, bj};
                p.normal = lit.faces[f].plane.normal;
                int n = 0;
                for (int j = bj * kBouncePatchLuxels; j < std::min(g.height(), (bj + 1) * kBouncePatchLuxels); ++j)
                    for (int i = bi * kBouncePatchLuxels; i < std::min(g.width(), (bi + 1) * kBouncePatchLuxels); ++i) {
                        const size_t k = size_t(j) * size_t(g.width()) + size_t(i);
                        p.centre += map.samples[k];
                        const uint8_t* rgb = &map.styles.front().rgb[k * 3];
                        p.direct += Vec3(rgb[0], rgb[1], rgb[2]) / range;
                        ++n;
                    }
                p.centre /= n;
                p.direct /= n;
                p.area = faceArea * n / double(g.luxels());
                patches.push_back(p);
            }
    }
    firstPatch[lit.faces.size()] = patches.size();
    stats.patches = patches.size();
    // With a PVS: per patch the clusters around its centre. Receivers with the same clusters
    // see the same senders: the patches whose clusters those may see, in index order, so that
    // the light adds up in the same order as without the PVS (the same to the last bit).
    // Without one: every patch sends to every receiver.
    std::vector<std::vector<int32_t>> clusters(pvs ? patches.size() : 0);
    if (pvs) parallelFor(patches.size(), threads, [&](size_t p) { clusters[p] = pvs->clustersAround(patches[p].centre); });
    std::vector<std::vector<size_t>> groups;
    if (pvs) {
        std::map<std::vector<int32_t>, size_t> groupOf;
        for (size_t p = 0; p < patches.size(); ++p) {
            const auto [it, fresh] = groupOf.try_emplace(clusters[p], groups.size());
            if (fresh) groups.emplace_back();
            groups[it->second].push_back(p);
        }
    }
    std::vector<size_t> everyPatch(patches.size());
    std::iota(everyPatch.begin(), everyPatch.end(), size_t(0));

    std::vector<Vec3> emitted(patches.size()), received(patches.size(), Vec3::Zero()), total(patches.size(), Vec3::Zero());
    for (size_t p = 0; p < patches.size(); ++p) emitted[p] = patches[p].direct * kBounceReflectivity;
    std::atomic<size_t> rays{0}, skipped{0};
    // What receiver q gets from `senders`.
    const auto receive = [&](size_t q, const std::vector<size_t>& senders) {
        throwIfCancelled(cancel);
        const Patch& r = patches[q];
        Vec3 sum = Vec3::Zero();
        size_t traced = 0;
        for (const size_t p : senders) {
            const Patch& e = patches[p];
            if (e.face == r.face || emitted[p].maxCoeff() <= 0) continue;
            const Vec3 d = r.centre - e.centre;
            const double d2 = d.squaredNorm();
            if (d2 == 0) continue;
            const double len = std::sqrt(d2);
            const double ce = e.normal.dot(d) / len, cr = -r.normal.dot(d) / len;
            if (ce <= 0 || cr <= 0) continue;
            const double form = e.area * ce * cr / (std::numbers::pi * std::max(d2, e.area));
            const Vec3 add = emitted[p] * form;
            if (add.maxCoeff() <= kBounceGate) continue;
            ++traced;
            if (!occluder.blocked(e.centre, r.centre)) sum += add;
        }
        received[q] = sum;
        rays += traced;
    };
    for (int bounce = 0; bounce < bounces; ++bounce) {
        if (!pvs) parallelFor(patches.size(), threads, [&](size_t q) { receive(q, everyPatch); });
        else
            parallelFor(groups.size(), threads, [&](size_t g) {
                const std::vector<uint64_t> seen = pvs->seenFrom(clusters[groups[g].front()]);
                std::vector<size_t> senders;
                for (size_t p = 0; p < patches.size(); ++p)
                    if (BouncePvs::mayReach(seen, clusters[p])) senders.push_back(p);
                for (const size_t q : groups[g]) receive(q, senders);
                skipped += (patches.size() - senders.size()) * groups[g].size();
            });
        for (size_t p = 0; p < patches.size(); ++p) {
            total[p] += received[p];
            emitted[p] = received[p] * kBounceReflectivity;
        }
    }

    // Add each face's patch values to its luxels, bilinear between patch centres. Not
    // cancelled halfway: a lighting half bounced is no lighting.
    throwIfCancelled(cancel);
    parallelFor(lit.faces.size(), threads, [&](size_t f) {
        const size_t first = firstPatch[f], last = firstPatch[f + 1];
        if (first == last) return;
        FaceLightmap& map = lit.lightmaps[f];
        const LuxelGrid& g = map.grid;
        const int bw = blocks(g.width()), bh = blocks(g.height());
        const auto at = [&](int bi, int bj) { return total[first + size_t(std::clamp(bj, 0, bh - 1)) * size_t(bw) + size_t(std::clamp(bi, 0, bw - 1))]; };
        StyleLightmap& m = map.styles.front();
        for (int j = 0; j < g.height(); ++j)
            for (int i = 0; i < g.width(); ++i) {
                const double u = (i + 0.5) / kBouncePatchLuxels - 0.5, v = (j + 0.5) / kBouncePatchLuxels - 0.5;
                const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
                const double fu = u - i0, fv = v - j0;
                const Vec3 add = (at(i0, j0) * (1 - fu) * (1 - fv) + at(i0 + 1, j0) * fu * (1 - fv) +
                                  at(i0, j0 + 1) * (1 - fu) * fv + at(i0 + 1, j0 + 1) * fu * fv) *
                                 range;
                const size_t k = size_t(j) * size_t(g.width()) + size_t(i);
                Vec3 c(m.rgb[k * 3], m.rgb[k * 3 + 1], m.rgb[k * 3 + 2]);
                c += add;
                const double top = c.maxCoeff();
                if (top > 255.0)
                    for (int ch = 0; ch < 3; ++ch) c[ch] = c[ch] == top ? 255.0 : c[ch] * (255.0 / top);
                for (int ch = 0; ch < 3; ++ch) m.rgb[k * 3 + size_t(ch)] = uint8_t(std::clamp(c[ch], 0.0, 255.0));
                m.light[k] = uint8_t(std::clamp(c.maxCoeff(), 0.0, 255.0));
            }
    });
    stats.rays = rays;
    stats.pairsSkippedByPvs = skipped;
    stats.ms = clock.lapMs();
    lit.stats.bounces = size_t(bounces);
    lit.stats.bouncePatches = stats.patches;
    lit.stats.bounceRays = stats.rays;
    lit.stats.msBounce = stats.ms;
    return stats;
}

} // namespace shallot
