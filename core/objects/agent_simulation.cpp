#include "objects/agent_simulation.h"

#include "movers/travel.h"
#include "nav/nav_path.h"
#include "query/trace.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <numbers>
#include <thread>
#include <unordered_map>

namespace shallot {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// SplitMix64: a small, fast generator per agent (the step's result must not depend on
// which thread moves which agent).
uint64_t nextRandom(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double unitRandom(uint64_t& state) { return double(nextRandom(state) >> 11) * 0x1.0p-53; }

// Spawned agents keep this far apart (world units), and are tried at most this many boxes
// high above a floor point when its floor is taken (they then fall onto whoever is below).
constexpr double kSpawnGap = 1.0;
constexpr int kSpawnLevels = 4;
// An agent rides an object when the object is solid this far below its reference point
// (a box resting on a floor stands kSlideBackoff above it).
constexpr double kRideProbe = 2.0 * kSlideBackoff;
// Spawn checks file placed agents under square cells of this side.
constexpr double kSpawnCell = 128.0;
// Goals tried per agent per step when it needs a path (the rest wait for the next step).
constexpr int kGoalTries = 2;
// An agent standing where no walkable polygon is below it (on another agent's head, on the
// edge of a ledge) walks this far in a random direction instead.
constexpr double kWanderDistance = 48.0;

// An agent's keys: bit k for KeyKind(k).
uint8_t keyBit(KeyKind key) { return uint8_t(1u << unsigned(key)); }

int64_t spawnCellKey(int64_t x, int64_t y) { return (x << 32) ^ (y & 0xffffffff); }

double horizontalDistance(const Vec3& a, const Vec3& b) { return std::hypot(a.x() - b.x(), a.y() - b.y()); }

} // namespace

struct AgentSimulation::Agent {
    uint64_t rng = 0;
    std::vector<Vec3> path;
    size_t corner = 0;
    double fallSpeed = 0.0;
    bool grounded = false;
    Vec3 checkPosition = Vec3::Zero(); // where it was at the last stuck check
    double checkTime = 0.0;
    uint8_t keys = 0; // those carried (keyBit)
    // Carried by a moving object this step (standing on it), and the step before: a rider
    // stands still until the ride stops, then finds a new path from where it got to.
    bool riding = false, rodeBefore = false;
};

struct AgentSimulation::Worker {
    SceneScratch scratch;
    StageCounts moves, colliding;
    double pathSeconds = 0.0;
    uint64_t found = 0, missed = 0, reached = 0, stuck = 0;
};

template <class Job>
void AgentSimulation::forAgents(const Job& job) {
    const size_t count = agents_.size(), workers = workers_.size();
    auto run = [&](size_t w) {
        const size_t begin = count * w / workers, end = count * (w + 1) / workers;
        for (size_t i = begin; i < end; ++i) job(workers_[w], i);
    };
    if (workers == 1 || count < workers) {
        for (size_t w = 0; w < workers; ++w) run(w);
        return;
    }
    std::vector<std::thread> pool;
    for (size_t w = 1; w < workers; ++w) pool.emplace_back(run, w);
    run(0);
    for (std::thread& t : pool) t.join();
}

Vec3 AgentSimulation::randomFloorPoint(int pose, int component, uint64_t& rng) const {
    const NavMesh& mesh = *meshes_[size_t(pose)];
    const std::vector<Floors>& byComponent = floors_[size_t(pose)];
    const Floors& floors = component >= 0 && size_t(component) + 1 < byComponent.size() ? byComponent[size_t(component)]
                                                                                          : byComponent.back();
    const std::vector<double>& sums = floors.areaSums;
    const double pick = unitRandom(rng) * sums.back();
    const size_t index = std::min(size_t(std::upper_bound(sums.begin(), sums.end(), pick) - sums.begin()), sums.size() - 1);
    const std::vector<Vec3>& v = mesh.polygons[size_t(floors.polygons[index])].vertices;
    // A triangle of the fan from v[0] by area, then a uniform point in it.
    auto twiceArea = [&](size_t k) { return (v[k] - v[0]).cross(v[k + 1] - v[0]).norm(); };
    double total = 0.0;
    for (size_t k = 1; k + 1 < v.size(); ++k) total += twiceArea(k);
    double rest = unitRandom(rng) * total;
    size_t k = 1;
    while (k + 2 < v.size() && rest >= twiceArea(k)) rest -= twiceArea(k++);
    double a = unitRandom(rng), b = unitRandom(rng);
    if (a + b > 1.0) {
        a = 1.0 - a;
        b = 1.0 - b;
    }
    return v[0] + a * (v[k] - v[0]) + b * (v[k + 1] - v[0]);
}

AgentSimulation::AgentSimulation(CollisionScene& scene, const SimulationOptions& options)
    : scene_(scene), options_(options), time_(options.startSeconds) {
    const BspTree& tree = scene.world();
    std::vector<int> poses = options.poses;
    if (poses.empty())
        for (size_t p = 0; p < tree.poses.size(); ++p)
            if (!tree.poses[p].isPoint()) poses.push_back(int(p));
    if (poses.empty() && !tree.poses.empty()) poses.push_back(0);
    workers_.resize(size_t(std::max(1, options.threads)));

    const Clock::time_point navStart = Clock::now();
    meshes_.resize(tree.poses.size());
    floors_.resize(tree.poses.size());
    for (const int p : poses) {
        if (meshes_[size_t(p)]) continue;
        meshes_[size_t(p)] = std::make_unique<NavMesh>(buildNavMesh(tree, p, tree.poses[size_t(p)].nav));
        const NavMesh& mesh = *meshes_[size_t(p)];
        std::vector<Floors>& floors = floors_[size_t(p)];
        floors.resize(size_t(std::max(mesh.componentCount, 0)) + 1);
        for (size_t k = 0; k < mesh.polygons.size(); ++k) {
            const NavPolygon& polygon = mesh.polygons[k];
            if (!(polygon.area > 0.0)) continue;
            Floors* own = polygon.component >= 0 && polygon.component < mesh.componentCount ? &floors[size_t(polygon.component)]
                                                                                             : nullptr;
            for (Floors* f : {&floors.back(), own}) {
                if (!f) continue;
                f->polygons.push_back(int32_t(k));
                f->areaSums.push_back((f->areaSums.empty() ? 0.0 : f->areaSums.back()) + polygon.area);
            }
        }
    }
    seekPlaces_.resize(tree.poses.size());
    if (options.seekPlaces && options.seekShare > 0.0)
        for (size_t p = 0; p < tree.poses.size(); ++p) {
            if (!meshes_[p]) continue;
            const Pose& box = tree.poses[p];
            for (const Aabb& place : *options.seekPlaces) {
                std::vector<int32_t> polygons;
                std::vector<Vec3> points;
                polygonsTouching(*meshes_[p], {place.mins - box.maxs, place.maxs - box.mins}, polygons, points);
                if (!points.empty()) seekPlaces_[p].push_back({std::move(points), 0.5 * (place.mins + place.maxs)});
            }
        }
    report_.navSeconds = secondsSince(navStart);

    if (options.firing) {
        // Each key where PlaceItem leaves it: dropped from 6 above its origin onto the floor
        // (the point pose's trace), or where it is when that finds no floor.
        const auto point = std::find_if(tree.poses.begin(), tree.poses.end(), [](const Pose& p) { return p.isPoint(); });
        for (const KeyItem& key : options.firing->keys) {
            Vec3 origin = key.origin;
            if (point != tree.poses.end()) {
                const Vec3 from = origin + Vec3(0, 0, 6.0), to = origin - Vec3(0, 0, kKeyDropDistance);
                const TraceResult drop = traceSegment(tree, int(point - tree.poses.begin()), from, to);
                if (!drop.startSolid && drop.hit) origin = drop.point + Vec3(0, 0, kKeyBelowOrigin);
            }
            keyBoxes_.push_back({origin - Vec3(kKeyHalfWidth, kKeyHalfWidth, kKeyBelowOrigin),
                                 origin + Vec3(kKeyHalfWidth, kKeyHalfWidth, kKeyAboveOrigin)});
        }
        keyTaken_.assign(keyBoxes_.size(), false);
    }

    // Spawn: random floor points, lifted a box height at a time while the place is taken.
    std::unordered_map<int64_t, std::vector<uint32_t>> placed;
    uint64_t rng = options.seed;
    SceneScratch scratch;
    StageCounts ignored;
    for (int k = 0; k < std::max(0, options.agents); ++k) {
        const int pose = poses[size_t(k) % poses.size()];
        if (floors_[size_t(pose)].back().areaSums.empty()) continue;
        const Pose& box = tree.poses[size_t(pose)];
        auto free = [&](const Vec3& p) {
            if (scene.isSolid({pose, -1}, p, scratch, ignored)) return false;
            const Aabb mine{p + box.mins - Vec3::Constant(kSpawnGap), p + box.maxs + Vec3::Constant(kSpawnGap)};
            const int64_t x0 = int64_t(std::floor(mine.mins.x() / kSpawnCell)), x1 = int64_t(std::floor(mine.maxs.x() / kSpawnCell));
            const int64_t y0 = int64_t(std::floor(mine.mins.y() / kSpawnCell)), y1 = int64_t(std::floor(mine.maxs.y() / kSpawnCell));
            for (int64_t x = x0; x <= x1; ++x)
                for (int64_t y = y0; y <= y1; ++y) {
                    const auto it = placed.find(spawnCellKey(x, y));
                    if (it == placed.end()) continue;
                    for (const uint32_t other : it->second) {
                        const Pose& o = tree.poses[size_t(poses_[other])];
                        if (mine.overlaps({positions_[other] + o.mins, positions_[other] + o.maxs})) return false;
                    }
                }
            return true;
        };
        bool done = false;
        for (int attempt = 0; attempt < options.spawnAttempts && !done; ++attempt) {
            const Vec3 floor = randomFloorPoint(pose, -1, rng) + Vec3(0, 0, kSpawnLift);
            for (int level = 0; level < kSpawnLevels && !done; ++level) {
                const Vec3 p = floor + Vec3(0, 0, level * (box.maxs.z() - box.mins.z() + 2.0 * kSpawnGap));
                if (!free(p)) continue;
                const uint32_t index = uint32_t(positions_.size());
                positions_.push_back(p);
                poses_.push_back(pose);
                Agent agent;
                agent.rng = options.seed ^ (0x5851f42d4c957f2dull * (uint64_t(index) + 1));
                agent.checkPosition = p;
                agents_.push_back(std::move(agent));
                const int64_t x0 = int64_t(std::floor((p.x() + box.mins.x()) / kSpawnCell)), x1 = int64_t(std::floor((p.x() + box.maxs.x()) / kSpawnCell));
                const int64_t y0 = int64_t(std::floor((p.y() + box.mins.y()) / kSpawnCell)), y1 = int64_t(std::floor((p.y() + box.maxs.y()) / kSpawnCell));
                for (int64_t x = x0; x <= x1; ++x)
                    for (int64_t y = y0; y <= y1; ++y) placed[spawnCellKey(x, y)].push_back(index);
                done = true;
            }
        }
    }
    next_ = positions_;
    report_.agents = int(agents_.size());
}

AgentSimulation::~AgentSimulation() = default;

bool AgentSimulation::newPath(size_t i, Worker& worker) {
    Agent& a = agents_[i];
    const int pose = poses_[i];
    const Clock::time_point start = Clock::now();
    const NavMesh& mesh = *meshes_[size_t(pose)];
    // Half the goals on the floors the agent can walk back from (always found), half anywhere.
    const Landing floor = dropToFloor(scene_.world(), mesh, positions_[i]);
    const int component = floor.polygon >= 0 ? mesh.polygons[size_t(floor.polygon)].component : -1;
    bool found = false;
    const std::vector<SeekPlace>& places = seekPlaces_[size_t(pose)];
    for (int t = 0; t < kGoalTries && !found; ++t) {
        Vec3 goal;
        const SeekPlace* sought = nullptr;
        if (!places.empty() && unitRandom(a.rng) < options_.seekShare) {
            sought = &places[nextRandom(a.rng) % places.size()];
            goal = sought->points[nextRandom(a.rng) % sought->points.size()];
        } else {
            goal = randomFloorPoint(pose, nextRandom(a.rng) % 2 ? component : -1, a.rng);
        }
        NavPath path = findPath(scene_.world(), mesh, positions_[i], goal);
        if (path.found && !path.points.empty()) {
            a.path = std::move(path.points);
            if (sought) a.path.push_back(Vec3(sought->middle.x(), sought->middle.y(), a.path.back().z()));
            a.corner = 0;
            found = true;
            ++worker.found;
        } else {
            ++worker.missed;
            if (path.miss == NavPathMiss::StartOffGround) break; // no floor below: wander off instead
        }
    }
    if (!found && floor.polygon < 0) {
        const double angle = 2.0 * std::numbers::pi * unitRandom(a.rng);
        a.path = {positions_[i] + kWanderDistance * Vec3(std::cos(angle), std::sin(angle), 0.0)};
        a.corner = 0;
    }
    worker.pathSeconds += secondsSince(start);
    return found;
}

void AgentSimulation::stepAgent(size_t i, Worker& w) {
    Agent& a = agents_[i];
    const int pose = poses_[i];
    const NavSettings& rules = meshes_[size_t(pose)]->settings;
    const double dt = options_.stepSeconds;
    const SceneQuery q{pose, int(i)};
    Vec3 p = positions_[i];

    if (a.riding) a.checkTime = time_; // a ride is not being stuck
    if (time_ - a.checkTime >= kStuckSeconds) {
        if ((p - a.checkPosition).norm() < kStuckDistance && a.corner < a.path.size()) {
            ++w.stuck;
            a.path.clear(); // another goal
        }
        a.checkPosition = p;
        a.checkTime = time_;
    }
    if (a.rodeBefore && !a.riding) { // off the ride: the old path is where it came from
        a.path.clear();
        a.corner = 0;
        a.checkPosition = p;
        a.checkTime = time_;
    }
    while (a.corner < a.path.size() && horizontalDistance(p, a.path[a.corner]) < kCornerReached) ++a.corner;
    if (a.corner >= a.path.size()) {
        if (!a.path.empty()) ++w.reached;
        a.path.clear();
        if (a.grounded) newPath(i, w);
    }

    // Walk: across towards the next corner, climbing steps (a rider stands still).
    if (a.corner < a.path.size() && !a.riding) {
        Vec3 walk = a.path[a.corner] - p;
        walk.z() = 0.0;
        const double distance = walk.norm(), stride = options_.speed * dt;
        if (distance > stride) walk *= stride / distance;
        if (distance > 0.0) p = scene_.move(q, p, walk, rules.stepHeight, w.scratch, w.moves).end;
    }
    // Fall: onto the ground (down a step when on it), faster each step in the air. Ground
    // holds the box where it lands: straight down, no slide (a slide down a walkable ramp
    // undid each step's walk up it, as Quake's ground does not); only a surface too steep
    // to stand on lets it slide on down.
    if (!a.grounded) a.fallSpeed += options_.gravity * dt;
    const double down = (a.grounded ? rules.stepHeight : 0.0) + a.fallSpeed * dt;
    const Vec3 drop(0, 0, -down);
    auto onGround = [&](const MoveResult& m) {
        return std::any_of(m.contacts.begin(), m.contacts.end(), [&](const Contact& c) { return c.normal.z() >= rules.walkableNormalZ; });
    };
    MoveOptions straightDown;
    straightDown.bumps = 1;
    MoveResult fall = scene_.move(q, p, drop, 0.0, w.scratch, w.moves, straightDown);
    a.grounded = onGround(fall);
    if (!a.grounded && !fall.contacts.empty()) { // on a steep surface: slide off it
        fall = scene_.move(q, p, drop, 0.0, w.scratch, w.moves);
        a.grounded = onGround(fall);
    }
    if (a.grounded) a.fallSpeed = 0.0;
    next_[i] = fall.end;
}

void AgentSimulation::moveObjects() {
    const std::vector<Mover>* movers = options_.movers;
    if (!movers) return;
    objectClocks_.resize(scene_.objectCount(), options_.startSeconds);
    const double dt = options_.stepSeconds;
    Worker& w = workers_.front();
    std::vector<uint32_t> near;
    if (options_.firing) {
        if (!firing_) firing_ = std::make_unique<MoverFiring>(*movers, *options_.firing, options_.startSeconds);
        pickUpKeys(w.scratch);
        auto holder = [&](const Aabb& box, KeyKind key) {
            const uint8_t bit = keyBit(key);
            scene_.agentsOverlapping(box, w.scratch, near);
            std::sort(near.begin(), near.end());
            for (const uint32_t a : near)
                if (agents_[a].keys & bit) {
                    agents_[a].keys &= uint8_t(~bit);
                    ++report_.keysUsed;
                    return true;
                }
            return false;
        };
        firing_->touch(
            time_,
            [&](const Aabb& box) {
                scene_.agentsOverlapping(box, w.scratch, near);
                return !near.empty();
            },
            holder);
        report_.moverTrips = firing_->counts().trips;
        report_.firings = firing_->counts().triggerFirings;
    }
    // Where object k goes this step, and its clock moved on once it went.
    auto wanted = [&](size_t k, const Mover& mover) {
        return firing_ ? firing_->offsetAfter(k, dt) : mover.offsetAtTime(objectClocks_[k] + dt);
    };
    auto went = [&](size_t k) {
        objectClocks_[k] += dt;
        if (firing_) firing_->advance(k, dt, time_);
    };
    struct Push {
        uint32_t agent;
        Vec3 to;
        bool rides; // standing on it (else only in its way)
    };
    std::vector<Push> pushes;
    // The grid is filed again before it is asked, once an object moved or agents were
    // pushed: a stale box would miss an agent pushed this step into the next object's way.
    bool stale = false;
    for (size_t k = 0; k < scene_.objectCount() && k < movers->size(); ++k) {
        const Mover& mover = (*movers)[k];
        if (mover.kind == MoverKind::Static) continue;
        const CollisionObject& object = scene_.object(k);
        const Vec3 old = scene_.objectOffset(k), want = wanted(k, mover);
        if (want == old || object.bounds.empty()) {
            went(k);
            stale = stale || want != old;
            scene_.setObjectOffset(k, want);
            continue;
        }
        const Vec3 delta = want - old;
        // Who it can meet: agents overlapping its box at either place, or just above it.
        Aabb reach{object.bounds.mins + old, object.bounds.maxs + old};
        reach.add(Aabb{object.bounds.mins + want, object.bounds.maxs + want});
        reach.maxs.z() += kRideProbe;
        if (stale) scene_.rebuildGrid();
        scene_.agentsOverlapping(reach, w.scratch, near);
        scene_.setObjectOffset(k, want);
        stale = true;
        pushes.clear();
        bool blocked = false;
        for (const uint32_t a : near) {
            const Vec3& p = positions_[a];
            const int pose = poses_[a];
            const bool inside = object.tree.isSolid(p - want, pose);
            const bool riding = object.tree.isSolid(p - Vec3(0, 0, kRideProbe) - old, pose);
            if (!inside && !riding) continue;
            const Vec3 pushed = p + delta;
            if (scene_.isSolid({pose, int(a)}, pushed, w.scratch, w.moves)) {
                blocked = true;
                break;
            }
            pushes.push_back({a, pushed, riding});
        }
        if (blocked) {
            scene_.setObjectOffset(k, old);
            ++report_.objectsBlocked;
            if (firing_) firing_->blocked(k); // doors and plats turn back
            continue;
        }
        for (const Push& push : pushes) {
            positions_[push.agent] = push.to;
            agents_[push.agent].riding = agents_[push.agent].riding || push.rides;
        }
        report_.agentsPushed += pushes.size();
        ++report_.objectMoves;
        went(k);
    }
}

void AgentSimulation::pickUpKeys(SceneScratch& scratch) {
    std::vector<uint32_t> near;
    for (size_t k = 0; k < keyBoxes_.size(); ++k) {
        if (keyTaken_[k]) continue;
        scene_.agentsOverlapping(keyBoxes_[k], scratch, near);
        if (near.empty()) continue;
        const uint32_t first = *std::min_element(near.begin(), near.end());
        agents_[first].keys |= keyBit(options_.firing->keys[k].kind);
        keyTaken_[k] = true;
        ++report_.keysPickedUp;
    }
}

void AgentSimulation::teleportAgents() {
    Worker& w = workers_.front();
    std::vector<uint32_t> inside;
    for (const Teleport& t : *options_.teleports) {
        if (t.destination < 0 || t.bounds.empty()) continue;
        if (t.needsFiring && !(firing_ && time_ - firing_->lastUsed(t.entity) <= kTeleportUseWindow)) continue;
        scene_.agentsOverlapping(t.bounds, w.scratch, inside);
        std::sort(inside.begin(), inside.end()); // the same order on every run
        const Vec3 arrival = t.arrival();
        for (const uint32_t i : inside) {
            // Quake kills whoever stands at the destination (telefrag); agents wait instead.
            if (scene_.isSolid({poses_[i], int(i)}, arrival, w.scratch, w.moves)) {
                ++report_.teleportsRefused;
                continue;
            }
            positions_[i] = arrival;
            scene_.setAgents(positions_, poses_); // the next one in this teleporter meets it there
            Agent& a = agents_[i];
            a.path.clear();
            a.corner = 0;
            a.grounded = false;
            a.fallSpeed = 0.0;
            a.checkPosition = arrival;
            a.checkTime = time_;
            ++report_.teleported;
        }
    }
}

void AgentSimulation::step() {
    const Clock::time_point start = Clock::now();
    const std::clock_t cpuStart = std::clock();
    scene_.setAgents(positions_, poses_);
    for (Agent& a : agents_) {
        a.rodeBefore = a.riding;
        a.riding = false;
    }
    if (options_.movers) {
        moveObjects();
        scene_.setAgents(positions_, poses_); // the objects' new places and the pushed agents
    }
    forAgents([&](Worker& w, size_t i) { stepAgent(i, w); });
    // The seed's update loop: agent i goes back to its old place when its new one collides
    // with an object or with an agent updated before it (a lower index) at its new place.
    // Every move read the old places, so the result overlaps nowhere: a kept agent avoided
    // the old places of those after it that went back, and the new places of those before
    // it; two agents walking into each other never both go back (which would repeat).
    scene_.setAgents(next_, poses_);
    std::vector<uint8_t> back(agents_.size(), 0);
    forAgents([&](Worker& w, size_t i) { back[i] = scene_.colliding(int(i), next_[i], w.scratch, w.colliding, true); });
    for (size_t i = 0; i < agents_.size(); ++i) {
        if (back[i]) ++report_.putBack;
        else positions_[i] = next_[i];
    }
    if (options_.teleports && !options_.teleports->empty()) {
        scene_.setAgents(positions_, poses_);
        teleportAgents();
    }
    time_ += options_.stepSeconds;
    ++report_.steps;
    report_.stepSeconds += secondsSince(start);
    report_.cpuSeconds += double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    report_.moves = {};
    report_.colliding = {};
    report_.pathSeconds = 0.0;
    report_.pathsFound = report_.pathsMissed = report_.goalsReached = report_.stuck = 0;
    for (const Worker& w : workers_) {
        report_.moves.add(w.moves);
        report_.colliding.add(w.colliding);
        report_.pathSeconds += w.pathSeconds;
        report_.pathsFound += w.found;
        report_.pathsMissed += w.missed;
        report_.goalsReached += w.reached;
        report_.stuck += w.stuck;
    }
}

} // namespace shallot
