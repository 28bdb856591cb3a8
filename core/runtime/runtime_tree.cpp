#include "shallot/runtime.h"

#include "io/obsp_format.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"
#include "query/point_visibility.h"
#include "query/point_classify.h"
#include "query/slide_move.h"
#include "query/trace.h"
#include "query/trace_batch.h"
#include "runtime/file_mapping.h"
#include "runtime/runtime_results.h"
#include "runtime/tree_impl.h"
#include "nav/nav_path.h"
#include "movers/travel_reach.h"
#include "compile/parallel_for.h"

#include <algorithm>
#include <cmath>
#include <new>

namespace shallot::runtime {

shallot::Vec3 toEigen(const Vec3& v) { return {v.x, v.y, v.z}; }
Vec3 fromEigen(const shallot::Vec3& v) { return {v.x(), v.y(), v.z()}; }

namespace {

bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool inRange(const Vec3& v) {
    return finite(v) && std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
           std::abs(v.z) <= kMaxCoordinate;
}
std::string rangeError(const std::string& what) { return what + " must be 3 finite numbers within +-1e9"; }

Hit toHit(const TraceResult& r) {
    Hit h;
    h.startSolid = r.startSolid;
    h.allSolid = r.allSolid;
    h.hit = r.hit;
    h.t = r.t;
    h.point = fromEigen(r.point);
    if (r.hit) h.normal = fromEigen(r.normal); // as shallot-cli query: zero without a hit
    return h;
}

std::shared_ptr<const Tree::Impl> implFromRead(ObspReadResult& read) {
    std::optional<World> world;
    if (read.brushes) world = World{std::move(*read.brushes), read.tree->poses, read.tree->bounds};
    std::vector<std::string> warnings;
    if (!read.pvsError.empty()) warnings.push_back(read.pvsError + " (loaded without a PVS)");
    return std::make_shared<const Tree::Impl>(makeLevel(std::move(*read.tree), std::move(world), std::move(warnings),
                                                        std::move(read.pvs), std::move(read.movers)));
}

// One scratch per thread: the scene is const while it answers, and the stamps it keeps
// only grow, so a scratch may serve any scene.
SceneScratch& sceneScratch() {
    thread_local SceneScratch scratch;
    return scratch;
}

// The broad phase's counts, which nobody reads here: untimed.
StageCounts untimed() {
    StageCounts counts;
    counts.timing = false;
    return counts;
}

} // namespace

const BoxTraceWorld& Tree::Impl::boxTraceWorld() const {
    std::call_once(level->boxWorldOnce,
                   [&] { level->boxWorld = std::make_unique<BoxTraceWorld>(BoxTraceWorld::build(*world)); });
    return *level->boxWorld;
}

namespace {

// The pose's navigation mesh; the caller holds the level's navMutex.
const NavMesh& navMeshLocked(Tree::Impl::Level& level, int pose) {
    std::vector<std::unique_ptr<const NavMesh>>& meshes = level.navMeshes;
    const BspTree& tree = level.tree;
    if (meshes.size() < tree.poses.size()) meshes.resize(tree.poses.size());
    std::unique_ptr<const NavMesh>& m = meshes[size_t(pose)];
    if (!m) m = std::make_unique<const NavMesh>(buildNavMesh(tree, pose, tree.poses[size_t(pose)].nav)); // the pose's own rules
    return *m;
}

} // namespace

const NavMesh& Tree::Impl::navMesh(int pose) const {
    const std::lock_guard lock(level->navMutex);
    return navMeshLocked(*level, pose);
}

const TravelGraph& Tree::Impl::travelGraph(int pose) const {
    const std::lock_guard lock(level->navMutex);
    if (!level->travel)
        level->travel = std::make_unique<const TravelLevel>(level->movers ? storedTravelLevel(level->movers->entities)
                                                                          : TravelLevel{});
    std::vector<std::unique_ptr<const TravelGraph>>& graphs = level->travelGraphs;
    if (graphs.size() < tree.poses.size()) graphs.resize(tree.poses.size());
    std::unique_ptr<const TravelGraph>& g = graphs[size_t(pose)];
    if (!g)
        g = std::make_unique<const TravelGraph>(
            buildTravelGraph(tree, navMeshLocked(*level, pose), tree.poses[size_t(pose)], *level->travel));
    return *g;
}

Tree::Tree() = default;
Tree::Tree(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

Result<Tree> Tree::loadFile(const std::string& path) {
    return guarded<Result<Tree>>([&] {
        FileMapping mapping;
        std::string error;
        if (!mapping.map(path, kObspMaxFileBytes, error)) return failure<Tree>(path + ": obsp: " + error);
        ObspReadResult read = readObspBytes(mapping.bytes());
        if (!read.tree) return failure<Tree>(path + ": " + read.error);
        return success(Tree(implFromRead(read)));
    });
}

Result<Tree> Tree::loadBuffer(const void* data, size_t size) {
    return guarded<Result<Tree>>([&] {
        if (!data && size > 0) return failure<Tree>("obsp: null buffer");
        ObspReadResult read = readObspBytes({static_cast<const char*>(data), size});
        if (!read.tree) return failure<Tree>(read.error);
        return success(Tree(implFromRead(read)));
    });
}

Result<Tree> Tree::compileMap(const std::string& mapPath, const std::vector<PoseBox>& poses, int threads) {
    return guarded<Result<Tree>>([&] {
        auto compiled = compileMapFile(mapPath, poses, threads);
        if (!compiled) return failure<Tree>(compiled.error);
        return success(Tree(std::move(compiled.value)));
    });
}

Status Tree::save(const std::string& path, bool brushes) const {
    return guarded<Status>([&] {
        Status s;
        if (!impl_) s.error = "no tree loaded";
        else
            s.error = saveObspFile(impl_->tree, path, brushes && impl_->world ? &impl_->world->brushes : nullptr,
                                   impl_->pvs ? &*impl_->pvs : nullptr, nullptr, impl_->level->movers.get());
        return s;
    });
}

Result<Tree> Tree::withPvs(bool fullFlow, int threads) const {
    return guarded<Result<Tree>>([&] {
        if (!impl_) return failure<Tree>("no tree loaded");
        if (!impl_->world) return failure<Tree>("a PVS needs the brushes: this tree was saved without them");
        TreePvsSettings settings;
        settings.fullFlow = fullFlow;
        settings.threads = std::max(1, threads);
        TreePvsResult computed = computeTreePvs(impl_->tree, impl_->world->brushes, settings);
        if (!computed.pvs) return failure<Tree>(computed.error);
        const std::map<int, shallot::MoverState> states = currentSettings(*impl_);
        return success(Tree(std::make_shared<const Impl>(
            makeLevel(impl_->tree, impl_->world, impl_->warnings, std::move(computed.pvs), impl_->level->movers),
            states, impl_->round)));
    });
}

const std::vector<PoseBox>& Tree::poses() const {
    static const std::vector<PoseBox> none;
    return impl_ ? impl_->poses : none;
}

int Tree::poseIndex(std::string_view name) const {
    const std::vector<PoseBox>& all = poses();
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i].name == name) return int(i);
    return -1;
}

bool Tree::hasBrushes() const { return impl_ && impl_->world; }
bool Tree::hasPvs() const { return impl_ && impl_->pvs; }

const std::vector<std::string>& Tree::warnings() const {
    static const std::vector<std::string> none;
    return impl_ ? impl_->warnings : none;
}

// ---- queries: each checks its inputs, then makes exactly the core call shallot-cli makes ----

namespace {

// Why `pose` cannot be used with `impl`, or empty.
std::string poseError(const Tree::Impl* impl, int pose) {
    if (!impl) return "no tree loaded";
    if (pose < 0 || size_t(pose) >= impl->poses.size())
        return "pose index " + std::to_string(pose) + " out of range (the tree has " +
               std::to_string(impl->poses.size()) + " poses)";
    return {};
}

// poseError, and a round pose refused: reach and paths walk the tree's cells, which hold
// only the tree's poses.
std::string treePoseError(const Tree::Impl* impl, int pose) {
    std::string e = poseError(impl, pose);
    if (e.empty() && impl->roundPose(pose))
        e = "pose " + std::to_string(pose) + " (\"" + impl->poses[size_t(pose)].name +
            "\") is round: reach and paths need a pose of the tree";
    return e;
}

// The solidity bits of p (in `leaf` of the world tree) for every pose: the world's alone,
// or with the movers, each pose as shallot-cli query's classify answers it.
uint64_t solidBits(const Tree::Impl& impl, const shallot::Vec3& p, int32_t leaf) {
    uint64_t bits = impl.tree.leafSolid[size_t(leaf)];
    for (size_t pose = impl.tree.poses.size(); pose < impl.poses.size(); ++pose)
        if (impl.roundSpace(int(pose))->isSolid(p)) bits |= uint64_t(1) << pose;
    if (!impl.scene) return bits;
    // Solid in the world is solid in the scene (CollisionScene::isSolid tests the world
    // first), so only the poses the world leaves empty ask the movers.
    StageCounts counts = untimed();
    for (size_t pose = 0; pose < impl.tree.poses.size(); ++pose)
        if (!((bits >> pose) & 1u) && impl.scene->isSolid({int(pose), -1}, p, sceneScratch(), counts))
            bits |= uint64_t(1) << pose;
    return bits;
}

// A sweep against the world, and the movers when the level has them; `object` (when
// given) receives the index of the mover the answer came from, or -1.
TraceResult traceIn(const Tree::Impl& impl, int pose, const shallot::Vec3& from, const shallot::Vec3& to,
                    int* object = nullptr) {
    if (object) *object = -1;
    if (const PlacedMoveSpaces* round = impl.roundSpace(pose)) {
        const PlacedMoveSpaces::Answer a = round->traceWhich(from, to);
        if (object) *object = a.part;
        return a.result;
    }
    if (!impl.scene) return traceSegment(impl.tree, pose, from, to);
    SceneScratch& scratch = sceneScratch();
    StageCounts counts = untimed();
    const TraceResult r = impl.scene->trace({pose, -1}, from, to, scratch, counts);
    if (object && (r.hit || r.startSolid)) *object = scratch.hitObject;
    return r;
}

MoveResult moveIn(const Tree::Impl& impl, int pose, const shallot::Vec3& from, const shallot::Vec3& delta,
                  double stepHeight) {
    if (const PlacedMoveSpaces* round = impl.roundSpace(pose)) return slideMove(*round, from, delta, stepHeight);
    if (!impl.scene) return slideMove(impl.tree, pose, from, delta, stepHeight);
    StageCounts counts = untimed();
    return impl.scene->move({pose, -1}, from, delta, stepHeight, sceneScratch(), counts);
}

} // namespace

Result<Classification> Tree::classify(const Vec3& point) const {
    return guarded<Result<Classification>>([&] {
        if (!impl_) return failure<Classification>("no tree loaded");
        if (!finite(point)) return failure<Classification>("point must be 3 finite numbers");
        const int32_t leaf = impl_->tree.findLeaf(toEigen(point));
        return success(Classification{leaf, solidBits(*impl_, toEigen(point), leaf)});
    });
}

Result<Hit> Tree::trace(int pose, const Vec3& from, const Vec3& to) const {
    return guarded<Result<Hit>>([&] {
        if (std::string e = poseError(impl_.get(), pose); !e.empty()) return failure<Hit>(e);
        if (!inRange(from)) return failure<Hit>(rangeError("from"));
        if (!inRange(to)) return failure<Hit>(rangeError("to"));
        return success(toHit(traceIn(*impl_, pose, toEigen(from), toEigen(to))));
    });
}

Result<MoverHit> Tree::traceWithMover(int pose, const Vec3& from, const Vec3& to) const {
    return guarded<Result<MoverHit>>([&] {
        if (std::string e = poseError(impl_.get(), pose); !e.empty()) return failure<MoverHit>(e);
        if (!inRange(from)) return failure<MoverHit>(rangeError("from"));
        if (!inRange(to)) return failure<MoverHit>(rangeError("to"));
        int object = -1;
        MoverHit out;
        out.hit = toHit(traceIn(*impl_, pose, toEigen(from), toEigen(to), &object));
        if (object >= 0) out.mover = impl_->level->moverList[size_t(object)].entity;
        return success(out);
    });
}

Result<Hit> Tree::traceBox(const Vec3& mins, const Vec3& maxs, const Vec3& from, const Vec3& to) const {
    return guarded<Result<Hit>>([&] {
        if (!impl_) return failure<Hit>("no tree loaded");
        if (!inRange(mins) || !inRange(maxs) || !(mins.x <= maxs.x && mins.y <= maxs.y && mins.z <= maxs.z))
            return failure<Hit>("the box must have finite mins <= maxs within +-1e9");
        if (!inRange(from)) return failure<Hit>(rangeError("from"));
        if (!inRange(to)) return failure<Hit>(rangeError("to"));
        const shallot::Vec3 lo = toEigen(mins), hi = toEigen(maxs), a = toEigen(from), b = toEigen(to);
        // A compiled pose's box is answered by the tree, as shallot-cli query does, unless a
        // brush exempts that pose (then the tree's answer is not the box's).
        const BspTree& t = impl_->tree;
        for (size_t i = 0; i < t.poses.size(); ++i) {
            if (t.poses[i].mins != lo || t.poses[i].maxs != hi) continue;
            bool exempt = false;
            if (impl_->world)
                for (const Brush& brush : impl_->world->brushes)
                    for (const std::string& name : brush.excludedPoses) exempt |= name == t.poses[i].name;
            if (!exempt) return success(toHit(traceIn(*impl_, int(i), a, b)));
        }
        if (!impl_->world)
            return failure<Hit>("boxes other than the poses need the brushes: this tree was saved without them");
        // The movers meet it as they meet the poses: each its brushes in its own frame.
        const BoxMoveSpace world(impl_->boxTraceWorld(), lo, hi);
        std::vector<BoxMoveSpace> moverSpaces;
        std::vector<PlacedSpace> parts;
        if (impl_->scene) parts = impl_->level->moverShapes->boxParts(lo, hi, impl_->scene->objectOffsets(), moverSpaces);
        return success(toHit(PlacedMoveSpaces(world, std::move(parts)).trace(a, b)));
    });
}

Result<Move> Tree::move(int pose, const Vec3& from, const Vec3& delta, double stepHeight) const {
    return guarded<Result<Move>>([&] {
        if (std::string e = poseError(impl_.get(), pose); !e.empty()) return failure<Move>(e);
        if (!inRange(from)) return failure<Move>(rangeError("from"));
        if (!inRange(delta)) return failure<Move>(rangeError("delta"));
        if (!(stepHeight >= 0.0 && stepHeight <= kMaxCoordinate))
            return failure<Move>("stepHeight must be a number in [0, 1e9]");
        const MoveResult r = moveIn(*impl_, pose, toEigen(from), toEigen(delta), stepHeight);
        Move m;
        m.end = fromEigen(r.end);
        for (const shallot::Contact& c : r.contacts) m.contacts.push_back({fromEigen(c.point), fromEigen(c.normal), c.t});
        m.startSolid = r.startSolid;
        m.stepped = r.stepped;
        return success(std::move(m));
    });
}

Status Tree::moveBatch(int pose, const double* from, const double* delta, size_t n, double stepHeight,
                       const MoveColumns& out) const {
    return guarded<Status>([&] {
        Status s;
        s.error = poseError(impl_.get(), pose);
        if (s.ok() && n > 0 && (!from || !delta || !out.end || !out.startSolid || !out.stepped || !out.contacts))
            s.error = "null array";
        if (s.ok() && !(stepHeight >= 0.0 && stepHeight <= kMaxCoordinate))
            s.error = "stepHeight must be a number in [0, 1e9]";
        for (size_t i = 0; s.ok() && i < n; ++i)
            if (!inRange({from[3 * i], from[3 * i + 1], from[3 * i + 2]}) ||
                !inRange({delta[3 * i], delta[3 * i + 1], delta[3 * i + 2]}))
                s.error = rangeError("row " + std::to_string(i) + ": from and delta");
        if (!s.ok()) return s;
        for (size_t i = 0; i < n; ++i) {
            const shallot::Vec3 a(from[3 * i], from[3 * i + 1], from[3 * i + 2]);
            const shallot::Vec3 d(delta[3 * i], delta[3 * i + 1], delta[3 * i + 2]);
            const MoveResult r = moveIn(*impl_, pose, a, d, stepHeight);
            for (int k = 0; k < 3; ++k) out.end[3 * i + size_t(k)] = r.end[k];
            out.startSolid[i] = r.startSolid;
            out.stepped[i] = r.stepped;
            out.contacts[i] = uint32_t(r.contacts.size());
        }
        return s;
    });
}

namespace {

// reach and reachWithMovers: the pose and the points checked, then the flood over the
// tree `withMovers` chooses (the level's alone, or the one with its movers placed).
Result<Reach> reachIn(const Tree::Impl* impl, int pose, const Vec3& from, const Vec3& to, bool withMovers) {
    return guarded<Result<Reach>>([&] {
        if (std::string e = treePoseError(impl, pose); !e.empty()) return failure<Reach>(e);
        if (!finite(from) || !finite(to)) return failure<Reach>("from and to must be 3 finite numbers each");
        const BspTree* tree = &impl->tree;
        if (withMovers && impl->scene) { // a level without movers is its own tree
            const Tree::Impl::PlacedWorld& placed = impl->placedWorld();
            if (!placed.tree) return failure<Reach>(placed.error);
            tree = &*placed.tree;
        }
        const ReachAnswer a = reachBetween(*tree, pose, toEigen(from), toEigen(to));
        return success(Reach{a.reachable, a.fromLeaf, a.toLeaf});
    });
}

} // namespace

Result<Reach> Tree::reach(int pose, const Vec3& from, const Vec3& to) const { return reachIn(impl_.get(), pose, from, to, false); }

Result<Reach> Tree::reachWithMovers(int pose, const Vec3& from, const Vec3& to) const {
    return reachIn(impl_.get(), pose, from, to, true);
}

Result<Region> Tree::reachFrom(int pose, const Vec3& from) const {
    return guarded<Result<Region>>([&] {
        if (std::string e = treePoseError(impl_.get(), pose); !e.empty()) return failure<Region>(e);
        if (!finite(from)) return failure<Region>("from must be 3 finite numbers");
        Flood f = flood(impl_->tree, pose, {toEigen(from)}); // as shallot-cli reach
        Region r;
        r.startLeaf = f.starts[0].leaf;
        r.reachedLeaves = f.reachedLeaves;
        r.volume = f.volume;
        r.leak = f.leak;
        for (const shallot::Vec3& v : f.leakPath) r.leakPath.push_back(fromEigen(v));
        r.reached = std::move(f.reached);
        return success(std::move(r));
    });
}

Result<Path> Tree::path(int pose, const Vec3& from, const Vec3& to) const {
    return guarded<Result<Path>>([&] {
        if (std::string e = treePoseError(impl_.get(), pose); !e.empty()) return failure<Path>(e);
        if (!inRange(from) || !inRange(to)) return failure<Path>(rangeError("from and to"));
        const NavPath found = findPath(impl_->tree, impl_->navMesh(pose), toEigen(from), toEigen(to));
        Path out{found.found, found.length, {}};
        for (const shallot::Vec3& v : found.points) out.points.push_back(fromEigen(v));
        return success(std::move(out));
    });
}

Result<Route> Tree::travelPath(int pose, const Vec3& from, const Vec3& to) const {
    return guarded<Result<Route>>([&] {
        if (std::string e = treePoseError(impl_.get(), pose); !e.empty()) return failure<Route>(e);
        if (!inRange(from) || !inRange(to)) return failure<Route>(rangeError("from and to"));
        const TravelPath found = findTravelPath(impl_->tree, impl_->travelGraph(pose), toEigen(from), toEigen(to));
        Route out{found.found, found.length, found.seconds, {}, {}};
        for (const shallot::Vec3& v : found.points) out.points.push_back(fromEigen(v));
        for (const TravelStep& s : found.travel)
            out.steps.push_back({travelKindName(s.kind), fromEigen(s.from), fromEigen(s.to), s.seconds, s.entity});
        return success(std::move(out));
    });
}

namespace {

// The pose visible() answers for (the PVS's, or the sight pose), or the error.
std::string sightError(const Tree::Impl* impl, int& sight) {
    if (!impl) return "no tree loaded";
    sight = impl->pvs ? impl->pvs->pose : sightPose(impl->tree);
    return sight < 0 ? "the tree has no sight pose (a point pose at the reference point): nothing sees" : "";
}

Visibility toVisibility(const PointVisibility& v) { return {v.pvs, v.pvsKnown, v.clear, v.fromLeaf, v.toLeaf}; }

} // namespace

Result<Visibility> Tree::visible(const Vec3& from, const Vec3& to) const {
    return guarded<Result<Visibility>>([&] {
        int sight = -1;
        if (std::string e = sightError(impl_.get(), sight); !e.empty()) return failure<Visibility>(e);
        if (!inRange(from)) return failure<Visibility>(rangeError("from"));
        if (!inRange(to)) return failure<Visibility>(rangeError("to"));
        const TreePvs* pvs = impl_->pvs ? &*impl_->pvs : nullptr;
        return success(toVisibility(pointVisibility(impl_->tree, sight, pvs, toEigen(from), toEigen(to))));
    });
}

Status Tree::visibleBatch(const double* from, const double* to, size_t n, const VisibilityColumns& out,
                          int threads) const {
    return guarded<Status>([&] {
        Status s;
        int sight = -1;
        s.error = sightError(impl_.get(), sight);
        if (s.ok() && n > 0 && (!from || !to || !out.pvs || !out.pvsKnown || !out.clear || !out.fromLeaf || !out.toLeaf))
            s.error = "null array";
        std::vector<shallot::Vec3> a, b;
        for (size_t i = 0; s.ok() && i < n; ++i) {
            a.emplace_back(from[3 * i], from[3 * i + 1], from[3 * i + 2]);
            b.emplace_back(to[3 * i], to[3 * i + 1], to[3 * i + 2]);
            if (!inRange(fromEigen(a.back())) || !inRange(fromEigen(b.back())))
                s.error = rangeError("row " + std::to_string(i) + ": from and to");
        }
        if (!s.ok()) return s;
        const TreePvs* pvs = impl_->pvs ? &*impl_->pvs : nullptr;
        const std::vector<PointVisibility> answers = pointVisibilityBatch(impl_->tree, sight, pvs, a, b, threads);
        for (size_t i = 0; i < n; ++i) {
            out.pvs[i] = answers[i].pvs;
            out.pvsKnown[i] = answers[i].pvsKnown;
            out.clear[i] = answers[i].clear;
            out.fromLeaf[i] = answers[i].fromLeaf;
            out.toLeaf[i] = answers[i].toLeaf;
        }
        return s;
    });
}

size_t Tree::leafCount() const { return impl_ ? impl_->tree.leafCount() : 0; }

Status Tree::classifyBatch(const double* points, size_t n, uint64_t* solid, int32_t* leaves) const {
    return guarded<Status>([&] {
        Status s;
        if (!impl_) s.error = "no tree loaded";
        else if (n > 0 && (!points || !solid)) s.error = "null array";
        if (!s.ok()) return s;
        std::vector<shallot::Vec3> p(n);
        for (size_t i = 0; i < n; ++i) {
            p[i] = {points[3 * i], points[3 * i + 1], points[3 * i + 2]};
            if (!p[i].allFinite()) {
                s.error = "point " + std::to_string(i) + " must be 3 finite numbers";
                return s;
            }
        }
        if (leaves || impl_->scene) // one descent per point gives both
            for (size_t i = 0; i < n; ++i) {
                const int32_t leaf = impl_->tree.findLeaf(p[i]);
                if (leaves) leaves[i] = leaf;
                solid[i] = solidBits(*impl_, p[i], leaf);
            }
        else
            classifyPoints(impl_->tree, p, std::span<uint64_t>(solid, n));
        return s;
    });
}

namespace {

// Rows traced per call of the core's traceBatch: its request and result arrays stay this
// long whatever the batch (a few MB, reused), rather than growing with it. Fresh arrays as
// long as a batch of 100,000 cost more in page faults than a sixth of the traces.
constexpr size_t kTraceChunk = 16384;

// Checks every row, then traces the batch chunk by chunk and hands each answer to
// write(row, TraceResult).
template <class Write>
Status traceRows(const Tree::Impl* impl, int pose, const double* from, const double* to, size_t n, bool outOk,
                 int threads, Write&& write) {
    Status s;
    s.error = poseError(impl, pose);
    if (s.ok() && n > 0 && (!from || !to || !outOk)) s.error = "null array";
    for (size_t i = 0; s.ok() && i < n; ++i)
        if (!inRange({from[3 * i], from[3 * i + 1], from[3 * i + 2]}) || !inRange({to[3 * i], to[3 * i + 1], to[3 * i + 2]}))
            s.error = rangeError("row " + std::to_string(i) + ": from and to");
    if (!s.ok()) return s;
    if (impl->scene || impl->roundPose(pose)) { // the movers or a round pose: row by row, split over the threads
        std::vector<TraceResult> results(std::min(kTraceChunk, n));
        for (size_t first = 0; first < n; first += kTraceChunk) {
            const size_t count = std::min(kTraceChunk, n - first);
            parallelFor(count, threads, [&](size_t k) {
                const double *a = from + 3 * (first + k), *b = to + 3 * (first + k);
                results[k] = traceIn(*impl, pose, {a[0], a[1], a[2]}, {b[0], b[1], b[2]});
            });
            for (size_t k = 0; k < count; ++k) write(first + k, results[k]);
        }
        return s;
    }
    std::vector<TraceRequest> requests;
    for (size_t first = 0; first < n; first += kTraceChunk) {
        const size_t count = std::min(kTraceChunk, n - first);
        requests.resize(count);
        for (size_t k = 0; k < count; ++k) {
            const double *a = from + 3 * (first + k), *b = to + 3 * (first + k);
            requests[k] = {pose, {a[0], a[1], a[2]}, {b[0], b[1], b[2]}};
        }
        const std::vector<TraceResult> results = shallot::traceBatch(impl->tree, requests, threads);
        for (size_t k = 0; k < count; ++k) write(first + k, results[k]);
    }
    return s;
}

} // namespace

Status Tree::traceBatch(int pose, const double* from, const double* to, size_t n, Hit* out, int threads) const {
    return guarded<Status>([&] {
        return traceRows(impl_.get(), pose, from, to, n, out != nullptr, threads,
                         [&](size_t i, const TraceResult& r) { out[i] = toHit(r); });
    });
}

Status Tree::traceBatch(int pose, const double* from, const double* to, size_t n, const HitColumns& out,
                        int threads) const {
    return guarded<Status>([&] {
        const bool outOk = out.startSolid && out.allSolid && out.hit && out.t && out.point && out.normal;
        return traceRows(impl_.get(), pose, from, to, n, outOk, threads, [&](size_t i, const TraceResult& r) {
            const Hit h = toHit(r);
            out.startSolid[i] = h.startSolid;
            out.allSolid[i] = h.allSolid;
            out.hit[i] = h.hit;
            out.t[i] = h.t;
            const double point[3] = {h.point.x, h.point.y, h.point.z}, normal[3] = {h.normal.x, h.normal.y, h.normal.z};
            for (int a = 0; a < 3; ++a) {
                out.point[3 * i + size_t(a)] = point[a];
                out.normal[3 * i + size_t(a)] = normal[a];
            }
        });
    });
}

} // namespace shallot::runtime
