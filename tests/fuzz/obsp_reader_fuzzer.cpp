// libFuzzer target: the .obsp reader (core/io/obsp_format.h) and every use of a tree that
// passed it: point and trace queries, collide-and-slide, reachability, leaf cells, the text
// dump, box sweeps against its brushes section, its stored PVS, and writing it back.
//
// The first input byte is a mode: odd recomputes the checksums of the rest (as a hostile
// writer would) so that mutations get past them into the validation; even keeps them.
#include "fuzz_support.h"

#include "io/obsp_format.h"
#include "io/tree_text_dump.h"
#include "portal/leaf_cells.h"
#include "portal/reachability.h"
#include "query/box_trace.h"
#include "query/point_visibility.h"
#include "query/slide_move.h"
#include "query/trace.h"

#include <sstream>

using namespace shallot;

namespace {

// A few points spread over the tree's box, derived from the bytes so that they vary.
std::vector<Vec3> probePoints(const BspTree& t, const uint8_t* data, size_t size) {
    const Aabb box = treeBox(t);
    std::vector<Vec3> points;
    for (int i = 0; i < 6; ++i) {
        Vec3 p;
        for (int a = 0; a < 3; ++a) {
            const double f = size ? double(data[(size_t(i) * 7 + size_t(a) * 3) % size]) / 255.0 : 0.5;
            const double lo = std::isfinite(box.mins[a]) ? box.mins[a] : -64.0;
            const double hi = std::isfinite(box.maxs[a]) ? box.maxs[a] : 64.0;
            p[a] = lo + f * (hi - lo);
        }
        points.push_back(p);
    }
    return points;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] & 1) fuzz::fixObspChecksums(bytes);
    std::istringstream in(bytes);
    const ObspReadResult read = readObsp(in);
    if (!read.tree) {
        SHALLOT_FUZZ_CHECK(fuzz::startsWith(read.error, "obsp: "), "error without the obsp prefix: " + read.error);
        return 0;
    }
    const BspTree& t = *read.tree;
    SHALLOT_FUZZ_CHECK(read.info.depth <= 2048, "a tree deeper than the compiler builds was accepted");

    // Everything a reader of the tree does must stay in range and terminate.
    const std::vector<Vec3> points = probePoints(t, data, size);
    for (size_t pose = 0; pose < t.poses.size() && pose < 4; ++pose) {
        for (size_t i = 0; i < points.size(); ++i) {
            (void)t.isSolid(points[i], int(pose));
            const TraceResult r = traceSegment(t, int(pose), points[i], points[(i + 1) % points.size()]);
            SHALLOT_FUZZ_CHECK(r.point.allFinite() && std::isfinite(r.t), "non-finite trace result");
        }
        const MoveResult m = slideMove(t, int(pose), points[0], points[1] - points[0], 18.0);
        SHALLOT_FUZZ_CHECK(m.end.allFinite(), "non-finite move end");
        (void)reachBetween(t, int(pose), points[2], points[3]);
        (void)flood(t, int(pose), {points[4]});
    }
    if (read.brushes) { // every stored brush is valid: the box sweep keeps them all
        const BoxTraceWorld boxes = BoxTraceWorld::build(World{*read.brushes, t.poses, t.bounds});
        SHALLOT_FUZZ_CHECK(boxes.brushes.size() == read.brushes->size(), "a stored brush was not valid");
        const TraceResult r = traceBox(boxes, Vec3(-4, -5, -6), Vec3(6, 5, 4), points[0], points[3]);
        SHALLOT_FUZZ_CHECK(r.point.allFinite() && std::isfinite(r.t), "non-finite box trace result");
    }
    if (read.pvs) { // a stored PVS fits the tree: every visible query stays in range
        SHALLOT_FUZZ_CHECK(treePvsProblem(*read.pvs, t).empty(), "a PVS that does not fit the tree was accepted");
        for (size_t i = 0; i + 1 < points.size(); ++i)
            (void)pointVisibility(t, read.pvs->pose, &*read.pvs, points[i], points[i + 1]);
    } else if (!read.pvsError.empty()) {
        // "obsp: ... section 'visibility' ..." (ObspReadResult::pvsError).
        SHALLOT_FUZZ_CHECK(fuzz::startsWith(read.pvsError, "obsp: ") && read.pvsError.find("section 'visibility'") != std::string::npos,
                           "a PVS error that does not name its section: " + read.pvsError);
    }
    (void)leafCells(t);
    std::ostringstream dump;
    dumpTreeText(t, dump);

    // A tree that was read writes back (with its brushes, PVS, lightmaps and movers): a file
    // of the current version byte for byte, unless its damaged PVS or lightmaps were left out
    // or it has movers (their entities are .map text, read and written again in the writer's
    // own spelling: the written file then writes back byte for byte, below).
    std::ostringstream out;
    const TreePvs* pvs = read.pvs ? &*read.pvs : nullptr;
    writeObsp(t, out, read.brushes ? &*read.brushes : nullptr, pvs, read.lighting ? &*read.lighting : nullptr,
              read.movers.get());
    SHALLOT_FUZZ_CHECK(out.good(), "a tree that was read cannot be written: " + obspWriteProblem(t, pvs));
    if (read.info.version == kObspVersion && read.pvsError.empty() && read.lightingError.empty() && !read.movers)
        SHALLOT_FUZZ_CHECK(out.str() == bytes, "the tree writes back differently");
    std::istringstream again(out.str());
    const ObspReadResult reread = readObsp(again);
    SHALLOT_FUZZ_CHECK(reread.tree.has_value(), "the written tree does not read back: " + reread.error);
    if (read.movers && read.pvsError.empty() && read.lightingError.empty()) {
        std::ostringstream twice;
        writeObsp(*reread.tree, twice, reread.brushes ? &*reread.brushes : nullptr, reread.pvs ? &*reread.pvs : nullptr,
                  reread.lighting ? &*reread.lighting : nullptr, reread.movers.get());
        SHALLOT_FUZZ_CHECK(twice.str() == out.str(), "a written tree with movers writes back differently");
    }
    return 0;
}
