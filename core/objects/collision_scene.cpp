#include "objects/collision_scene.h"

#include "objects/box_obstacle_trace.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace shallot {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr uint32_t kNoId = std::numeric_limits<uint32_t>::max();

Vec3 boxCentre(const Aabb& b) { return 0.5 * (b.mins + b.maxs); }
double boxRadius(const Aabb& b) { return 0.5 * (b.maxs - b.mins).norm(); }

} // namespace

// The scene as slideMove sees it during one move: the world tree plus what the broad phase
// passed to the exact test for that move.
class CollisionScene::Space final : public MoveSpace {
public:
    Space(const CollisionScene& scene, int pose, SceneScratch& scratch, StageCounts& counts)
        : scene_(scene), pose_(pose), scratch_(scratch), counts_(counts) {}

    TraceResult trace(const Vec3& from, const Vec3& to) const override {
        const bool timed = scratch_.timed;
        const Clock::time_point start = timed ? Clock::now() : Clock::time_point{};
        TraceResult r = traceSegment(scene_.world_, pose_, from, to);
        countWorld(start);
        scratch_.hitObject = -1;
        if (scratch_.objects.empty() && scratch_.agents.empty()) return r;
        const Clock::time_point exact = timed ? Clock::now() : Clock::time_point{};
        size_t k = 0;
        for (const uint32_t i : scratch_.objects) {
            const Vec3& offset = scene_.offsets_[i];
            TraceResult o = traceSegment(scene_.objects_[i]->tree, pose_, from - offset, to - offset);
            o.point = o.startSolid ? from : from + o.t * (to - from); // exactly on the segment, as the world's
            o.plane = -1;
            if (o.hit || o.startSolid) scratch_.touched[k] = 1;
            ++k;
            if (combineTraces(r, o)) scratch_.hitObject = int(i);
        }
        const Pose& pose = scene_.world_.poses[size_t(pose_)];
        for (const uint32_t a : scratch_.agents) {
            const TraceResult o = traceObstacleBox(obstacleBox(pose.mins, pose.maxs, scene_.agentBox(a)), from, to);
            if (o.hit || o.startSolid) scratch_.touched[k] = 1;
            ++k;
            if (combineTraces(r, o)) scratch_.hitObject = -1;
        }
        countExact(exact);
        return r;
    }

    bool isSolid(const Vec3& p) const override {
        const bool timed = scratch_.timed;
        const Clock::time_point start = timed ? Clock::now() : Clock::time_point{};
        const bool world = scene_.world_.isSolid(p, pose_);
        countWorld(start);
        if (world) return true;
        if (scratch_.objects.empty() && scratch_.agents.empty()) return false;
        const Clock::time_point exact = timed ? Clock::now() : Clock::time_point{};
        bool solid = false;
        size_t k = 0;
        for (const uint32_t i : scratch_.objects) {
            if (scene_.objects_[i]->tree.isSolid(p - scene_.offsets_[i], pose_)) {
                solid = true;
                scratch_.touched[k] = 1;
            }
            ++k;
        }
        const Pose& pose = scene_.world_.poses[size_t(pose_)];
        for (const uint32_t a : scratch_.agents) {
            if (insideObstacleBox(obstacleBox(pose.mins, pose.maxs, scene_.agentBox(a)), p)) {
                solid = true;
                scratch_.touched[k] = 1;
            }
            ++k;
        }
        countExact(exact);
        return solid;
    }

    void countWorld(Clock::time_point start) const {
        ++counts_.worldQueries;
        if (!scratch_.timed) return;
        counts_.worldSeconds += secondsSince(start);
        ++counts_.worldTimed;
    }
    void countExact(Clock::time_point start) const {
        if (scratch_.timed) counts_.seconds[size_t(CollisionStage::Exact)] += secondsSince(start);
    }

    // Counts the exact candidates found in contact, once per query.
    void finish() const {
        for (const uint8_t t : scratch_.touched) counts_.exactHits += t;
    }

private:
    const CollisionScene& scene_;
    int pose_;
    SceneScratch& scratch_;
    StageCounts& counts_;
};

CollisionScene::CollisionScene(const BspTree& world, std::vector<const CollisionObject*> objects, double cellSize)
    : world_(world), objects_(std::move(objects)), offsets_(objects_.size(), Vec3::Zero()), cellSize_(cellSize),
      extent_(world.polygonBounds()) {
    rebuildGrid();
}

Aabb CollisionScene::agentBox(size_t i) const {
    const Pose& pose = world_.poses[size_t(agentPoses_[i])];
    return {agentPositions_[i] + pose.mins, agentPositions_[i] + pose.maxs};
}

void CollisionScene::setAgents(std::span<const Vec3> positions, std::span<const int> poses) {
    agentPositions_ = positions;
    agentPoses_ = poses;
    rebuildGrid();
}

void CollisionScene::rebuildGrid() {
    gridBoxes_.clear();
    Aabb extent = extent_;
    for (size_t i = 0; i < objects_.size(); ++i) {
        const Aabb& b = objects_[i]->bounds;
        gridBoxes_.push_back(b.empty() ? b : Aabb{b.mins + offsets_[i], b.maxs + offsets_[i]});
        if (!b.empty()) extent.add(gridBoxes_.back());
    }
    for (size_t i = 0; i < agentPositions_.size(); ++i) gridBoxes_.push_back(agentBox(i));
    grid_.build(extent, cellSize_, gridBoxes_);
}

void CollisionScene::gather(const SceneQuery& q, const Aabb& region, SceneScratch& scratch, StageCounts& counts) const {
    const size_t objectCount = objects_.size();
    const bool selfIsAgent = q.self >= 0 && size_t(q.self) < agentPositions_.size();
    const uint32_t selfId = selfIsAgent ? uint32_t(objectCount + size_t(q.self)) : kNoId;
    const size_t agentCount =
        q.agentsBefore >= 0 ? std::min(agentPositions_.size(), size_t(q.agentsBefore)) : agentPositions_.size();
    const bool selfCounted = selfIsAgent && size_t(q.self) < agentCount;
    const uint64_t total = objectCount + agentCount - (selfCounted ? 1 : 0);
    const uint32_t idEnd = uint32_t(objectCount + agentCount);
    scratch.timed = counts.timing && counts.queries % kTimingStride == 0;
    ++counts.queries;
    counts.pairs += total;
    scratch.objects.clear();
    scratch.agents.clear();
    scratch.touched.clear();
    const Pose& pose = world_.poses[size_t(q.pose)];
    const Aabb box{region.mins + pose.mins, region.maxs + pose.maxs};

    // Grid: the boxes filed under a cell the query's box overlaps.
    Clock::time_point start = scratch.timed ? Clock::now() : Clock::time_point{};
    scratch.near.clear();
    if (scratch.stamps.size() < gridBoxes_.size()) scratch.stamps.resize(gridBoxes_.size(), 0);
    if (++scratch.stamp == 0) { // wrapped: forget every old stamp
        std::fill(scratch.stamps.begin(), scratch.stamps.end(), 0);
        scratch.stamp = 1;
    }
    grid_.forEachNear(box, scratch.stamps, scratch.stamp, [&](uint32_t id) {
        if (id != selfId && id < idEnd) scratch.near.push_back(id);
    });
    auto account = [&](CollisionStage stage, uint64_t tested, uint64_t settled) {
        counts.tested[size_t(stage)] += tested;
        counts.settled[size_t(stage)] += settled;
        if (!scratch.timed) return;
        counts.timedTests[size_t(stage)] += tested;
        counts.seconds[size_t(stage)] += secondsSince(start);
        start = Clock::now();
    };
    account(CollisionStage::Grid, total, total - scratch.near.size());

    // Bounding spheres: squared distance of the centres against the squared sum of the radii.
    const Vec3 centre = boxCentre(box);
    const double radius = boxRadius(box);
    const size_t nearCount = scratch.near.size();
    size_t kept = 0;
    for (const uint32_t id : scratch.near) {
        Vec3 c;
        double r;
        if (id < objectCount) {
            c = objects_[id]->centre + offsets_[id];
            r = objects_[id]->radius;
        } else {
            c = boxCentre(gridBoxes_[id]);
            r = boxRadius(gridBoxes_[id]);
        }
        if ((c - centre).squaredNorm() <= (r + radius) * (r + radius)) scratch.near[kept++] = id;
    }
    scratch.near.resize(kept);
    account(CollisionStage::Sphere, nearCount, nearCount - kept);

    // Boxes: the query's box against the object's placed bounds or the agent's box.
    for (const uint32_t id : scratch.near) {
        if (!box.overlaps(gridBoxes_[id])) continue;
        if (id < objectCount) scratch.objects.push_back(id);
        else scratch.agents.push_back(id - uint32_t(objectCount));
    }
    const size_t exact = scratch.objects.size() + scratch.agents.size();
    account(CollisionStage::Box, kept, kept - exact);
    counts.tested[size_t(CollisionStage::Exact)] += exact;
    counts.settled[size_t(CollisionStage::Exact)] += exact;
    if (scratch.timed) counts.timedTests[size_t(CollisionStage::Exact)] += exact;
    scratch.touched.assign(exact, 0);
}

void CollisionScene::agentsOverlapping(const Aabb& box, SceneScratch& scratch, std::vector<uint32_t>& out) const {
    out.clear();
    if (scratch.stamps.size() < gridBoxes_.size()) scratch.stamps.resize(gridBoxes_.size(), 0);
    if (++scratch.stamp == 0) {
        std::fill(scratch.stamps.begin(), scratch.stamps.end(), 0);
        scratch.stamp = 1;
    }
    const size_t objectCount = objects_.size();
    grid_.forEachNear(box, scratch.stamps, scratch.stamp, [&](uint32_t id) {
        if (id >= objectCount && box.overlaps(gridBoxes_[id])) out.push_back(id - uint32_t(objectCount));
    });
}

bool CollisionScene::isSolid(const SceneQuery& q, const Vec3& p, SceneScratch& scratch, StageCounts& counts) const {
    gather(q, Aabb{p, p}, scratch, counts);
    Space space(*this, q.pose, scratch, counts);
    const bool solid = space.isSolid(p);
    space.finish();
    return solid;
}

TraceResult CollisionScene::trace(const SceneQuery& q, const Vec3& from, const Vec3& to, SceneScratch& scratch,
                                  StageCounts& counts) const {
    Aabb region;
    region.add(from);
    region.add(to);
    region = {region.mins - Vec3::Constant(kQueryRegionMargin), region.maxs + Vec3::Constant(kQueryRegionMargin)};
    gather(q, region, scratch, counts);
    Space space(*this, q.pose, scratch, counts);
    const TraceResult r = space.trace(from, to);
    space.finish();
    return r;
}

MoveResult CollisionScene::move(const SceneQuery& q, const Vec3& from, const Vec3& delta, double stepHeight,
                                SceneScratch& scratch, StageCounts& counts, const MoveOptions& options) const {
    if (!from.allFinite()) return slideMove(world_, q.pose, from, delta, stepHeight, options); // startSolid
    // Every point a slide visits lies within its path length (at most |delta|) of the start,
    // plus one backoff per bump, for the nudge off a start on a surface, and for a
    // step-up's rise, landing and its slide's last stop; a step-up also climbs (and comes
    // back down) at most the step height along `up`.
    const double length = delta.allFinite() ? delta.norm() : 0.0;
    const double climb = std::isfinite(stepHeight) && stepHeight > 0.0 ? stepHeight : 0.0;
    Vec3 up = Vec3::UnitZ();
    if (options.up.allFinite() && options.up.norm() > 1e-12) up = options.up.normalized();
    const Vec3 reach = Vec3::Constant(length + (std::clamp(options.bumps, 1, 64) + 4) * kSlideBackoff + kQueryRegionMargin) +
                       climb * up.cwiseAbs();
    gather(q, Aabb{from - reach, from + reach}, scratch, counts);
    Space space(*this, q.pose, scratch, counts);
    MoveResult r = slideMove(space, from, delta, stepHeight, options);
    space.finish();
    return r;
}

bool CollisionScene::colliding(int self, const Vec3& position, SceneScratch& scratch, StageCounts& counts,
                               bool earlierOnly) const {
    const SceneQuery q{agentPoses_[size_t(self)], self, earlierOnly ? self : -1};
    gather(q, Aabb{position, position}, scratch, counts);
    const Clock::time_point start = scratch.timed ? Clock::now() : Clock::time_point{};
    const Pose& pose = world_.poses[size_t(q.pose)];
    bool hit = false;
    for (const uint32_t i : scratch.objects)
        if (objects_[i]->tree.isSolid(position - offsets_[i], q.pose)) {
            hit = true;
            ++counts.exactHits;
        }
    for (const uint32_t a : scratch.agents)
        if (insideObstacleBox(obstacleBox(pose.mins, pose.maxs, agentBox(a)), position)) {
            hit = true;
            ++counts.exactHits;
        }
    if (scratch.timed) counts.seconds[size_t(CollisionStage::Exact)] += secondsSince(start);
    return hit;
}

} // namespace shallot
