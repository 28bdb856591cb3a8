// libFuzzer target: the runtime's buffer entry point (<shallot/runtime.h>,
// Tree::loadBuffer) and every query a game makes on a level that loaded: classify, trace,
// any-box traces (with and without the brushes section), move, reach, visible (with and
// without a stored PVS), the batches, and the stored movers at other states.
// Nothing may throw, crash or answer non-finite numbers; a failed load is an error value.
//
// The first input byte is a mode: odd recomputes the checksums of the rest (as a hostile
// writer would) so that mutations get past them into the validation; even keeps them.
#include "fuzz_support.h"

#include "shallot/runtime.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

using namespace shallot;
namespace rt = shallot::runtime;

namespace {

bool finite(const rt::Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Points spread over +-256 (the seeds' worlds) from the input's bytes, so that they vary.
std::vector<rt::Vec3> probePoints(const uint8_t* data, size_t size) {
    std::vector<rt::Vec3> points;
    for (size_t i = 0; i < 6; ++i) {
        double c[3];
        for (size_t a = 0; a < 3; ++a) c[a] = (double(data[(i * 7 + a * 3) % size]) - 128.0) * 2.0;
        points.push_back({c[0], c[1], c[2]});
    }
    return points;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] & 1) fuzz::fixObspChecksums(bytes);
    const rt::Result<rt::Tree> loaded = rt::Tree::loadBuffer(bytes.data(), bytes.size());
    if (!loaded) {
        SHALLOT_FUZZ_CHECK(fuzz::startsWith(loaded.error, "obsp: "), "error without the obsp prefix: " + loaded.error);
        return 0;
    }
    const rt::Tree& tree = loaded.value;
    const std::vector<rt::Vec3> p = probePoints(data, size);
    const int poses = int(tree.poses().size());
    for (int pose = 0; pose < poses && pose < 4; ++pose) {
        SHALLOT_FUZZ_CHECK(tree.poseIndex(tree.poses()[size_t(pose)].name) <= pose, "poseIndex past the pose");
        for (size_t i = 0; i < p.size(); ++i) {
            const rt::Vec3& a = p[i];
            const rt::Vec3& b = p[(i + 1) % p.size()];
            SHALLOT_FUZZ_CHECK(tree.classify(a).ok(), "classify failed on a loaded tree");
            const rt::Result<rt::Hit> h = tree.trace(pose, a, b);
            SHALLOT_FUZZ_CHECK(h.ok() && finite(h.value.point) && std::isfinite(h.value.t), "bad trace");
        }
        const rt::Result<rt::Move> m = tree.move(pose, p[0], {p[1].x - p[0].x, p[1].y - p[0].y, 0}, 18.0);
        SHALLOT_FUZZ_CHECK(m.ok() && finite(m.value.end), "bad move");
        SHALLOT_FUZZ_CHECK(tree.reach(pose, p[2], p[3]).ok(), "reach failed on a loaded tree");
        const rt::Result<rt::Region> region = tree.reachFrom(pose, p[4]);
        SHALLOT_FUZZ_CHECK(region.ok() && region.value.reached.size() == tree.leafCount(), "bad reachFrom");
    }
    // A box that is no pose: answered from the brushes, or the error that there are none.
    const rt::Result<rt::Hit> box = tree.traceBox({-5, -6, -7}, {7, 6, 5}, p[4], p[5]);
    SHALLOT_FUZZ_CHECK(box.ok() == tree.hasBrushes(), "traceBox without brushes answered, or with them failed");
    SHALLOT_FUZZ_CHECK(!box.ok() || finite(box.value.point), "non-finite box trace");
    // The batches agree with single queries.
    std::vector<double> from, to;
    for (size_t i = 0; i < p.size(); ++i) {
        from.insert(from.end(), {p[i].x, p[i].y, p[i].z});
        to.insert(to.end(), {p[(i + 2) % p.size()].x, p[(i + 2) % p.size()].y, p[(i + 2) % p.size()].z});
    }
    std::vector<uint64_t> solid(p.size());
    SHALLOT_FUZZ_CHECK(tree.classifyBatch(from.data(), p.size(), solid.data()).ok(), "classifyBatch failed");
    for (size_t i = 0; i < p.size(); ++i)
        SHALLOT_FUZZ_CHECK(solid[i] == tree.classify(p[i]).value.solid, "classifyBatch differs");
    if (poses > 0) {
        std::vector<rt::Hit> hits(p.size());
        SHALLOT_FUZZ_CHECK(tree.traceBatch(0, from.data(), to.data(), p.size(), hits.data()).ok(), "traceBatch failed");
        for (size_t i = 0; i < p.size(); ++i)
            SHALLOT_FUZZ_CHECK(hits[i].t == tree.trace(0, p[i], p[(i + 2) % p.size()]).value.t, "traceBatch differs");
    }
    // visible answers wherever there is a sight pose (an error value otherwise), its batch
    // as one by one; without a PVS nothing is known.
    const size_t n = p.size();
    std::unique_ptr<bool[]> pvs(new bool[n]), known(new bool[n]), clear(new bool[n]);
    std::vector<int32_t> fromLeaf(n), toLeaf(n);
    const rt::Status batch =
        tree.visibleBatch(from.data(), to.data(), n, {pvs.get(), known.get(), clear.get(), fromLeaf.data(), toLeaf.data()});
    for (size_t i = 0; i < n; ++i) {
        const rt::Result<rt::Visibility> v = tree.visible(p[i], p[(i + 2) % n]);
        SHALLOT_FUZZ_CHECK(v.ok() == batch.ok(), "visible and visibleBatch disagree on failing");
        if (!v) continue;
        SHALLOT_FUZZ_CHECK(v.value.pvs == pvs[i] && v.value.pvsKnown == known[i] && v.value.clear == clear[i] &&
                               v.value.fromLeaf == fromLeaf[i] && v.value.toLeaf == toLeaf[i],
                           "visibleBatch differs");
        SHALLOT_FUZZ_CHECK(tree.hasPvs() || (v.value.pvs && !v.value.pvsKnown), "a PVS known without one");
    }
    // The movers a file stores: every one placed open, then at a fraction from the input,
    // answers as the tree does (finite traces, the mover hit one of them).
    const std::vector<rt::Mover>& movers = tree.movers();
    if (!movers.empty() && poses > 0) {
        std::vector<rt::MoverSetting> open, along;
        for (const rt::Mover& m : movers) {
            open.push_back({m.entity, rt::MoverState::open()});
            along.push_back({m.entity, rt::MoverState::at(double(data[size_t(m.entity) % size]) / 255.0)});
        }
        for (const auto& settings : {open, along}) {
            const rt::Result<rt::Tree> placed = tree.withMovers(settings);
            SHALLOT_FUZZ_CHECK(placed.ok(), "withMovers refused the file's own movers: " + placed.error);
            const rt::Result<rt::MoverHit> h = placed.value.traceWithMover(0, p[0], p[3]);
            SHALLOT_FUZZ_CHECK(h.ok() && finite(h.value.hit.point) && std::isfinite(h.value.hit.t), "bad mover trace");
            bool known = h.value.mover == -1;
            for (const rt::Mover& m : movers) known |= m.entity == h.value.mover;
            SHALLOT_FUZZ_CHECK(known, "a trace names no mover of the file");
            SHALLOT_FUZZ_CHECK(placed.value.classify(p[1]).ok(), "classify with movers failed");
            SHALLOT_FUZZ_CHECK(finite(placed.value.move(0, p[2], {8, 8, -8}, 18.0).value.end), "bad move with movers");
        }
    }
    return 0;
}
