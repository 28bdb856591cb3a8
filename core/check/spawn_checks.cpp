#include "check/spawn_checks.h"

#include "check/box_overlap_grid.h"
#include "check/near_brushes.h"
#include "check/walking_reach.h"
#include "compile/brush_expansion.h"
#include "portal/leak_hole.h"
#include "portal/reachability.h"
#include "query/box_trace.h"
#include "query/round_pose_world.h"
#include "query/round_shape_overlap.h"
#include "query/trace.h"
#include "world/brush_geometry.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>

namespace shallot {

namespace {

// An entity the checks look at: a sized point entity with a usable origin.
struct Placed {
    const SpawnEntity* entity = nullptr;
    EntityClass cls;
    Aabb hull;            // entityHullBox at the origin
    int pose = -1;        // the pose carrying the hull box, -1 for none
    bool useTree = false; // a pose, and a tree compiled for it
    // The pose is round: its shape, not its bounding box, is tested in brushes and dropped
    // (exactly); the tree (of its bounding box) still floods for the reach rules.
    const RoundPoseWorld* round = nullptr;
    Pose box;             // that pose, or the hull box relative to its min corner
    Vec3 ref = Vec3::Zero(); // the reference point for `box` at the origin
    double raise = 0.0;   // how far the tested box is raised above the origin
    bool brushTest = false;  // player starts, walking and flying monsters, items
    bool entityTest = false; // player starts and monsters
    bool isItem = false;
    bool isMonster = false;
    bool reachTest = false;  // monsters that move: the unreachable rule
    unsigned games = 0;      // the games it is in: kGameEasy | ... (see gamesOf)

    Vec3 testedRef() const { return ref + Vec3(0, 0, raise); }
    Aabb testedBox() const { return {hull.mins + Vec3(0, 0, raise), hull.maxs + Vec3(0, 0, raise)}; }
};

// The games an entity is in, from its spawnflags (Quake's engine removes an entity flagged
// "not in easy" (256), "not in normal" (512), "not in hard" (1024) or "not in deathmatch"
// (2048) before the game starts) and its class (monsters are removed in deathmatch; only
// deathmatch uses info_player_deathmatch; the other starts are single player and coop).
constexpr unsigned kGameEasy = 1, kGameNormal = 2, kGameHard = 4, kGameDeathmatch = 8;

bool equalsIgnoringCase(const std::string& a, const std::string& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

unsigned gamesOf(const SpawnEntity& e, const EntityClass& cls) {
    unsigned games = kGameEasy | kGameNormal | kGameHard | kGameDeathmatch;
    if (e.spawnflags & 256) games &= ~kGameEasy;
    if (e.spawnflags & 512) games &= ~kGameNormal;
    if (e.spawnflags & 1024) games &= ~kGameHard;
    if (e.spawnflags & 2048) games &= ~kGameDeathmatch;
    if (cls.category == EntityCategory::Monster) games &= ~kGameDeathmatch;
    if (cls.category == EntityCategory::PlayerStart)
        games &= equalsIgnoringCase(e.classname, "info_player_deathmatch") ? kGameDeathmatch : ~kGameDeathmatch;
    return games;
}

// Can two entities' boxes meet in a game? Both must be in one game; two player starts
// only when of the same class (two coop or two deathmatch starts telefrag each other; a
// player start and a deathmatch start never hold players in the same game).
bool canMeet(const Placed& a, const Placed& b) {
    if (!(a.games & b.games)) return false;
    if (a.cls.category == EntityCategory::PlayerStart && b.cls.category == EntityCategory::PlayerStart)
        return equalsIgnoringCase(a.entity->classname, b.entity->classname);
    return true;
}

// A crucified zombie (monster_zombie, spawnflags 1) hangs in a wall: Quake never moves
// nor tests it.
bool crucified(const SpawnEntity& e) { return equalsIgnoringCase(e.classname, "monster_zombie") && (e.spawnflags & 1); }

// As blocks() in world/world.h for a box no pose has (the rule traceBox uses).
bool blocksBox(BrushContents contents, bool isPoint) { return intersects(contents, defaultBlocking(isPoint)); }

// The world brushes whose interior the box [ref + box.mins, ref + box.maxs] overlaps by
// more than kSpawnContactTolerance: ref inside the brush's expanded planes (the point
// pose's planes of BoxTraceWorld moved out by the box's support, which is exactly
// expandedPlanes(geometry, box)) with every signed distance below -kSpawnContactTolerance.
// `pose` (when not null) decides which brushes block, else the box's contents rule.
std::vector<int> brushesHolding(NearBrushes& near, const World& world, const Pose& box, const Pose* pose,
                                const Vec3& ref) {
    std::vector<int> out;
    const bool isPoint = box.isPoint();
    near.forEach({ref + box.mins, ref + box.maxs}, [&](const BoxTraceBrush& b, const Plane* planes) {
        const Brush& brush = world.brushes[size_t(b.worldIndex)];
        if (pose ? !blocks(brush, *pose) : !blocksBox(b.contents, isPoint)) return;
        for (uint32_t k = b.firstPlane; k < b.firstPlane + b.planeCount; ++k) {
            const Plane& p = planes[k];
            if (p.normal.dot(ref) - (p.dist + poseSupport(box, p.normal)) >= -kSpawnContactTolerance) return;
        }
        out.push_back(b.worldIndex);
    });
    std::sort(out.begin(), out.end());
    return out;
}

// The world brushes blocking round pose `round` that its shape centred at `ref` overlaps
// by more than kSpawnContactTolerance (the exact distance from its core, round_shape_overlap.h).
std::vector<int> brushesHoldingShape(NearBrushes& near, const World& world, const RoundPoseWorld& round, const Vec3& ref) {
    std::vector<int> out;
    const RoundShapeFrame& frame = round.frame();
    const Vec3 centre = frame.toShape(ref);
    near.forEach({ref + round.pose().mins, ref + round.pose().maxs}, [&](const BoxTraceBrush& b, const Plane*) {
        const Brush& brush = world.brushes[size_t(b.worldIndex)];
        if (!blocks(brush, round.pose())) return;
        const std::optional<BrushGeometry> g = buildBrushGeometry(brush, world.bounds).geometry;
        if (g && roundShapeClearance(frame, RoundBrush::of(*g, frame), centre) < -kSpawnContactTolerance * frame.shapePerWorld)
            out.push_back(b.worldIndex);
    });
    std::sort(out.begin(), out.end());
    return out;
}

// The stretches s of [0, length] over which the box, moved down by s from ref, overlaps
// the interior of a blocking brush (being within kTraceOnPlaneEpsilon of a plane is
// touching, as in the traces), merged and ascending.
std::vector<std::pair<double, double>> dropSolidSpans(NearBrushes& near, const World& world, const Pose& box,
                                                      const Pose* pose, const Vec3& ref, double length) {
    std::vector<std::pair<double, double>> spans;
    const bool isPoint = box.isPoint();
    near.forEach({ref + box.mins - Vec3(0, 0, length), ref + box.maxs}, [&](const BoxTraceBrush& b, const Plane* planes) {
        const Brush& brush = world.brushes[size_t(b.worldIndex)];
        if (pose ? !blocks(brush, *pose) : !blocksBox(b.contents, isPoint)) return;
        double lo = 0.0, hi = length;
        for (uint32_t k = b.firstPlane; k < b.firstPlane + b.planeCount && lo < hi; ++k) {
            const Plane& p = planes[k];
            // Inside the plane at s: da + s dd < -epsilon, moving along -z.
            const double da = p.normal.dot(ref) - (p.dist + poseSupport(box, p.normal)), dd = -p.normal.z();
            const double limit = -kTraceOnPlaneEpsilon - da;
            if (dd == 0.0) {
                if (limit <= 0.0) hi = lo;
            } else if (dd > 0.0) {
                hi = std::min(hi, limit / dd);
            } else {
                lo = std::max(lo, limit / dd);
            }
        }
        if (lo < hi) spans.emplace_back(lo, hi);
    });
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<double, double>> merged;
    for (const auto& span : spans) {
        if (!merged.empty() && span.first <= merged.back().second) merged.back().second = std::max(merged.back().second, span.second);
        else merged.push_back(span);
    }
    return merged;
}

std::string describeBrush(const World& world, int index) {
    const Brush& b = world.brushes[size_t(index)];
    std::ostringstream s;
    if (b.source.entity >= 0) {
        s << "brush " << b.source.brush << " of entity " << b.source.entity;
        if (b.source.line > 0) s << " (line " << b.source.line << ")";
    } else {
        s << "brush " << index;
    }
    return s.str();
}

std::string describeBrushes(const World& world, const std::vector<int>& brushes) {
    constexpr size_t kNamed = 3;
    std::string out;
    for (size_t i = 0; i < brushes.size() && i < kNamed; ++i) {
        if (i) out += i + 1 == brushes.size() ? " and " : ", ";
        out += describeBrush(world, brushes[i]);
    }
    if (brushes.size() > kNamed) out += " and " + std::to_string(brushes.size() - kNamed) + " more";
    return out;
}

std::string describeBox(const World& world, const Placed& e) {
    if (e.pose >= 0) return "for pose " + world.poses[size_t(e.pose)].name;
    const Vec3 size = e.hull.maxs - e.hull.mins;
    return "for its box " + formatEntityVector(size) + " (no pose has that size)";
}

// A number as an entity key writes it: "6", "0.5".
std::string number(double x) {
    const std::string s = formatEntityVector(Vec3(x, 0, 0));
    return s.substr(0, s.find(' '));
}

std::string describe(const SpawnEntity& e) { return describeSpawnEntity(e.classname, e.index, e.line); }

bool samePoseBox(const Pose& a, const Pose& b) { return a.mins == b.mins && a.maxs == b.maxs; }

SpawnProblem problemFor(SpawnProblemKind kind, const Placed& e) {
    SpawnProblem p;
    p.kind = kind;
    p.entity = e.entity->index;
    p.classname = e.entity->classname;
    p.origin = e.entity->origin;
    p.pose = e.pose;
    p.box = e.testedBox();
    return p;
}

} // namespace

const char* spawnProblemName(SpawnProblemKind kind) {
    switch (kind) {
    case SpawnProblemKind::Stuck: return "stuck";
    case SpawnProblemKind::FellOut: return "fell_out";
    case SpawnProblemKind::Leak: return "leak";
    case SpawnProblemKind::Unreachable: return "unreachable";
    case SpawnProblemKind::BadOrigin: return "bad_origin";
    case SpawnProblemKind::UnreachableWalking: return "unreachable_walking";
    case SpawnProblemKind::NeverOpens: return "never_opens";
    case SpawnProblemKind::MissingTarget: return "missing_target";
    case SpawnProblemKind::Blocked: return "blocked";
    case SpawnProblemKind::BadMover: return "bad_mover";
    }
    return "stuck";
}

std::string describeSpawnEntity(const std::string& classname, int index, int line) {
    std::string s = (classname.empty() ? std::string("(no classname)") : classname) + " (entity " +
                    std::to_string(index);
    if (line > 0) s += ", line " + std::to_string(line);
    return s + ")";
}

int poseForHullBox(const std::vector<Pose>& poses, const Aabb& hullBox) {
    const Vec3 size = hullBox.maxs - hullBox.mins;
    for (size_t i = 0; i < poses.size(); ++i)
        if (poses[i].maxs - poses[i].mins == size) return int(i);
    return -1;
}

std::vector<SpawnEntity> spawnEntities(const std::vector<MapEntity>& entities, int firstIndex) {
    std::vector<SpawnEntity> out;
    out.reserve(entities.size());
    for (size_t i = 0; i < entities.size(); ++i) {
        const MapEntity& m = entities[i];
        SpawnEntity e;
        e.index = firstIndex + int(i);
        e.classname = m.classname();
        if (const std::string* origin = m.value("origin")) e.originText = *origin;
        if (const std::optional<Vec3> v = m.origin()) {
            e.origin = *v;
            e.hasOrigin = true;
        }
        if (const std::string* flags = m.value("spawnflags")) {
            // Quake reads it as a float; anything that is not a number is 0.
            const double v = std::strtod(flags->c_str(), nullptr);
            if (std::isfinite(v) && std::abs(v) < 1e9) e.spawnflags = int(v);
        }
        e.hasBrushes = !m.brushes.empty();
        const bool push = equalsIgnoringCase(e.classname, "trigger_push");
        if (e.hasBrushes && (push || equalsIgnoringCase(e.classname, "trigger_teleport")))
            for (const Brush& b : m.brushes)
                if (const BrushGeometryResult g = buildBrushGeometry(b, defaultWorldBounds()); g.geometry)
                    e.brushBounds.add(g.geometry->bounds);
        if (push) e.pushVelocity = quakePushVelocity(m.value("angle"), m.value("angles"), m.value("speed"));
        e.line = m.line;
        out.push_back(std::move(e));
    }
    return out;
}

namespace {

// Per pose: the empty leaves joined by the portals open for it, as connected components.
std::vector<int32_t> emptyComponents(const BspTree& tree, int pose) {
    const size_t n = tree.leafCount();
    std::vector<int32_t> parent(n);
    for (size_t i = 0; i < n; ++i) parent[i] = int32_t(i);
    auto find = [&](int32_t x) {
        while (parent[size_t(x)] != x) {
            parent[size_t(x)] = parent[size_t(parent[size_t(x)])];
            x = parent[size_t(x)];
        }
        return x;
    };
    const uint64_t bit = uint64_t(1) << pose;
    for (const Portal& p : tree.portals)
        if (p.poses & bit) {
            const int32_t a = find(p.front), b = find(p.back);
            if (a != b) parent[size_t(std::max(a, b))] = std::min(a, b);
        }
    std::vector<int32_t> component(n, -1);
    for (size_t i = 0; i < n; ++i)
        if (!((tree.leafSolid[i] >> pose) & 1u)) component[i] = find(int32_t(i));
    return component;
}

// Calls visit(leaf) for every leaf whose cell may meet the interior of `box`.
template <class Visit>
void forEachLeafIn(const BspTree& tree, const Aabb& box, const Visit& visit) {
    std::vector<ChildRef> stack{tree.root};
    const Vec3 centre = 0.5 * (box.mins + box.maxs), half = 0.5 * (box.maxs - box.mins);
    while (!stack.empty()) {
        const ChildRef r = stack.back();
        stack.pop_back();
        if (isLeaf(r)) {
            visit(leafIndex(r));
            continue;
        }
        const BspNode& node = tree.nodes[size_t(r)];
        const Plane& plane = tree.planes[size_t(node.plane)];
        const double d = plane.signedDistance(centre), e = half.dot(plane.normal.cwiseAbs());
        if (d + e > 0.0) stack.push_back(node.front);
        if (d - e < 0.0) stack.push_back(node.back);
    }
}

} // namespace

std::vector<SpawnProblem> checkSpawns(const SpawnCheckInput& input) {
    std::vector<SpawnProblem> problems;
    if (!input.world) return problems;
    const World& world = *input.world;
    static const EntityClassTable kQuake = EntityClassTable::quake();
    const EntityClassTable& classes = input.classes ? *input.classes : kQuake;
    const BspTree* onion = input.onion;
    auto treeHasPose = [&](int pose) {
        return onion && pose >= 0 && size_t(pose) < onion->poses.size() && !onion->leafSolid.empty() &&
               samePoseBox(onion->poses[size_t(pose)], world.poses[size_t(pose)]);
    };
    NearBrushes near(world); // brushes for the exact tests, prepared as queries come near them
    // The round poses' exact worlds, made for the poses entities use.
    std::vector<std::unique_ptr<RoundPoseWorld>> roundWorlds(world.poses.size());
    auto roundWorld = [&](int pose) -> const RoundPoseWorld* {
        if (pose < 0 || !world.poses[size_t(pose)].shape.isRound() || !poseShapeProblem(world.poses[size_t(pose)].shape).empty())
            return nullptr;
        std::unique_ptr<RoundPoseWorld>& w = roundWorlds[size_t(pose)];
        if (!w) w = std::make_unique<RoundPoseWorld>(world, world.poses[size_t(pose)]);
        return w.get();
    };

    // Quake's droptofloor: the box (already raised kItemRaise) moves down kItemDropDistance;
    // the item falls out when the whole way is solid, or when, from where it first is
    // empty, it meets no floor before the end. Nothing when it lands.
    auto itemFallsOut = [&](const Placed& e, const Vec3& from) -> std::optional<std::string> {
        const Vec3 to = from - Vec3(0, 0, kItemDropDistance);
        const Pose* pose = e.pose >= 0 ? &world.poses[size_t(e.pose)] : nullptr;
        double s = 0.0; // how far down the trace starts
        std::vector<std::pair<double, double>> spans;
        for (int attempt = 0; attempt < 16 && s < kItemDropDistance; ++attempt) {
            const Vec3 start = from - Vec3(0, 0, s);
            const TraceResult t = e.round     ? e.round->trace(start, to)
                                  : e.useTree ? traceSegment(*onion, e.pose, start, to)
                                              : traceBox(near.traceWorld(), e.box.mins, e.box.maxs, start, to);
            if (!t.startSolid) {
                if (t.hit) return std::nullopt;
                // An item placed inside a brush is there by mistake: that is what to say,
                // not what its fall out of the brush meets.
                if (s > 0.0) return "in solid, with nothing to land on within " + number(kItemDropDistance) + " units below it";
                return "no floor within " + number(kItemDropDistance) + " units below it";
            }
            if (t.allSolid) break;
            // It starts in solid but gets out: go on from just below where the brushes end.
            // (A round pose skips its bounding box's solid spans: where that is empty, so is the shape.)
            if (spans.empty()) spans = dropSolidSpans(near, world, e.box, pose, from, kItemDropDistance);
            for (const auto& [lo, hi] : spans)
                if (lo <= s && s < hi) s = hi;
            s += 2 * kStartSolidNudge;
        }
        return "in solid all the way down (" + number(kItemDropDistance) + " units)";
    };

    // Which entities are checked, and how.
    std::vector<Placed> placed;
    std::vector<const SpawnEntity*> teleporters;
    for (const SpawnEntity& e : input.entities) {
        if (e.hasBrushes) {
            if (!e.brushBounds.empty() && e.brushBounds.mins.allFinite() && e.brushBounds.maxs.allFinite())
                teleporters.push_back(&e);
            continue;
        }
        EntityClass cls = classOf(classes, e.classname);
        if (!cls.hasSize) continue;
        if (!e.hasOrigin || !e.origin.allFinite() || !world.bounds.contains(e.origin)) {
            SpawnProblem p;
            p.kind = SpawnProblemKind::BadOrigin;
            p.entity = e.index;
            p.classname = e.classname;
            p.origin = e.hasOrigin && e.origin.allFinite() ? e.origin : Vec3::Zero();
            if (!e.hasOrigin && e.originText.empty())
                p.message = describe(e) + " has no \"origin\"";
            else if (!e.hasOrigin || !e.origin.allFinite())
                p.message = describe(e) + " has an unusable \"origin\" \"" + e.originText + "\"";
            else
                p.message = describe(e) + " has its origin (" + formatEntityVector(e.origin) +
                            ") outside the world box";
            problems.push_back(std::move(p));
            continue;
        }
        Placed q;
        q.entity = &e;
        q.hull = entityHullBox(cls, e.origin);
        q.pose = poseForHullBox(world.poses, q.hull);
        q.useTree = treeHasPose(q.pose);
        q.round = roundWorld(q.pose);
        if (q.pose >= 0) {
            q.box = world.poses[size_t(q.pose)];
        } else {
            q.box.name = "(box)";
            q.box.maxs = q.hull.maxs - q.hull.mins;
        }
        q.ref = q.hull.mins - q.box.mins;
        q.games = gamesOf(e, cls);
        switch (cls.category) {
        case EntityCategory::PlayerStart:
            q.brushTest = q.entityTest = true;
            break;
        case EntityCategory::Monster:
            q.isMonster = q.entityTest = true;
            if ((cls.motion == EntityMotion::Walk || cls.motion == EntityMotion::Fly) && !crucified(e)) {
                q.brushTest = true;
                q.raise = kMonsterRaise;
            }
            q.reachTest = !crucified(e);
            break;
        case EntityCategory::Item:
            q.isItem = q.brushTest = true;
            q.raise = kItemRaise;
            break;
        default: break;
        }
        q.cls = std::move(cls);
        placed.push_back(std::move(q));
    }

    // Player starts and monsters in brushes; items dropped to the floor.
    std::vector<std::vector<int>> inBrushes(placed.size());
    for (size_t i = 0; i < placed.size(); ++i) {
        Placed& e = placed[i];
        if (!e.brushTest) continue;
        const Vec3 ref = e.testedRef();
        const Pose* pose = e.pose >= 0 ? &world.poses[size_t(e.pose)] : nullptr;
        if (e.isItem) {
            if (const std::optional<std::string> why = itemFallsOut(e, ref)) {
                SpawnProblem p = problemFor(SpawnProblemKind::FellOut, e);
                if (why->starts_with("in solid"))
                    p.brushes = e.round ? brushesHoldingShape(near, world, *e.round, ref)
                                        : brushesHolding(near, world, e.box, pose, ref);
                p.message = describe(*e.entity) + " fell out of the level: " + *why + " " + describeBox(world, e);
                problems.push_back(std::move(p));
            }
            continue;
        }
        // The tree is exact away from boundaries: empty there means no brush holds the box
        // by more than the contact tolerance. Solid is confirmed brush by brush.
        // A round pose: its exact world says whether any brush holds it, the brushes which.
        if (e.round) {
            if (e.round->isSolid(ref)) inBrushes[i] = brushesHoldingShape(near, world, *e.round, ref);
        }
        else if (!e.useTree || onion->isSolid(ref, e.pose)) inBrushes[i] = brushesHolding(near, world, e.box, pose, ref);
    }
    // Entity against entity, through the grid.
    std::vector<int> boxOwner;
    std::vector<Aabb> boxes;
    for (size_t i = 0; i < placed.size(); ++i)
        if (placed[i].entityTest) {
            boxOwner.push_back(int(i));
            boxes.push_back(placed[i].testedBox());
        }
    std::vector<std::vector<size_t>> overlaps(placed.size()); // indices into `placed`
    for (const auto& [a, b] : overlappingBoxPairs(boxes, kSpawnContactTolerance)) {
        const size_t ea = size_t(boxOwner[size_t(a)]), eb = size_t(boxOwner[size_t(b)]);
        if (!canMeet(placed[ea], placed[eb])) continue;
        overlaps[ea].push_back(eb);
        overlaps[eb].push_back(ea);
    }
    std::vector<bool> stuck(placed.size(), false);
    for (size_t i = 0; i < placed.size(); ++i) {
        const Placed& e = placed[i];
        if (e.isItem || (inBrushes[i].empty() && overlaps[i].empty())) continue;
        stuck[i] = true;
        SpawnProblem p = problemFor(SpawnProblemKind::Stuck, e);
        p.brushes = inBrushes[i];
        std::vector<size_t>& others = overlaps[i];
        std::sort(others.begin(), others.end(), [&](size_t a, size_t b) {
            return placed[a].entity->index < placed[b].entity->index;
        });
        for (size_t k : others) p.entities.push_back(placed[k].entity->index);
        std::string m = describe(*e.entity) + " is stuck";
        if (!p.brushes.empty()) m += " in " + describeBrushes(world, p.brushes) + " " + describeBox(world, e);
        if (!p.entities.empty()) {
            m += p.brushes.empty() ? ": its box overlaps " : "; its box overlaps ";
            constexpr size_t kNamed = 3;
            for (size_t k = 0; k < others.size() && k < kNamed; ++k) {
                if (k) m += k + 1 == others.size() ? " and " : ", ";
                m += describe(*placed[others[k]].entity);
            }
            if (p.entities.size() > kNamed) m += " and " + std::to_string(p.entities.size() - kNamed) + " more";
        }
        if (e.raise > 0) m += " (raised " + number(e.raise) + (e.raise == 1.0 ? " unit)" : " units)");
        p.message = std::move(m);
        problems.push_back(std::move(p));
    }

    // Where a leak leaves the level: the level's inside is where its point entities are.
    std::vector<Vec3> pointEntities;
    if (onion)
        for (const SpawnEntity& e : input.entities)
            if (!e.hasBrushes && e.hasOrigin && e.origin.allFinite() && onion->bounds.contains(e.origin))
                pointEntities.push_back(e.origin);
    auto holeOf = [&](const Flood& f) {
        const std::optional<LeakHole> hole = leakHole(*onion, f.pose, pointEntities, f.leakPortals);
        if (!hole) return Aabb{};
        // The portals bound where the box's reference point passes; its body spans the
        // opening in the brushes.
        const Pose& box = world.poses[size_t(f.pose)];
        return Aabb{hole->box.mins + box.mins, hole->box.maxs + box.maxs};
    };

    // Leaks and unreachable monsters, pose by pose, through the tree's portals: the empty
    // leaves a pose's open portals join, as components; the player starts' components are
    // what a flood from them reaches (portal/reachability.h).
    std::vector<size_t> starts;
    for (size_t i = 0; i < placed.size(); ++i)
        if (placed[i].cls.category == EntityCategory::PlayerStart) starts.push_back(i);
    std::optional<std::vector<OutsideLeaf>> outside;
    // Monsters the walking check leaves out: not in the space the starts reach flying (their
    // closet emptied by a teleporter, or reported unreachable).
    std::vector<bool> notWalked(placed.size(), false);
    for (size_t pose = 0; pose < world.poses.size() && !starts.empty(); ++pose) {
        if (!treeHasPose(int(pose))) continue;
        const std::vector<int32_t> component = emptyComponents(*onion, int(pose));
        std::vector<int32_t> startComponents;
        size_t firstEmpty = starts.size();
        for (size_t k = 0; k < starts.size(); ++k) {
            const StartPoint place = placeStart(*onion, int(pose), placed[starts[k]].entity->origin);
            if (place.leaf < 0) continue;
            startComponents.push_back(component[size_t(place.leaf)]);
            firstEmpty = std::min(firstEmpty, k);
        }
        if (startComponents.empty()) continue; // no start in empty space for this pose
        std::sort(startComponents.begin(), startComponents.end());
        auto fromStarts = [&](int32_t c) {
            return c >= 0 && std::binary_search(startComponents.begin(), startComponents.end(), c);
        };
        const std::string& poseName = world.poses[pose].name;

        if (!outside) outside = outsideLeaves(*onion);
        const bool leaks = std::any_of(outside->begin(), outside->end(),
                                       [&](const OutsideLeaf& o) { return fromStarts(component[size_t(o.leaf)]); });
        if (leaks) {
            std::vector<Vec3> points;
            for (size_t k : starts) points.push_back(placed[k].entity->origin);
            const Flood f = flood(*onion, int(pose), points); // for its leak path
            const Placed& s = placed[starts[firstEmpty]];
            SpawnProblem p = problemFor(SpawnProblemKind::Leak, s);
            p.pose = int(pose);
            p.box = {s.entity->origin + world.poses[pose].mins, s.entity->origin + world.poses[pose].maxs};
            p.path = f.leakPath;
            p.hole = holeOf(f);
            p.message = "pose " + poseName + " leaks: the space reachable from " + describe(*s.entity) +
                        " reaches the outside of the world box (a path of " + std::to_string(p.path.size()) +
                        " points)";
            problems.push_back(std::move(p));
        }

        // Components a trigger_teleport empties: a monster there is teleported in.
        std::vector<int32_t> teleported;
        const Pose& box = world.poses[pose];
        for (const SpawnEntity* t : teleporters)
            forEachLeafIn(*onion, {t->brushBounds.mins - box.maxs, t->brushBounds.maxs - box.mins}, [&](int32_t leaf) {
                if (component[size_t(leaf)] >= 0) teleported.push_back(component[size_t(leaf)]);
            });
        std::sort(teleported.begin(), teleported.end());
        for (size_t i = 0; i < placed.size(); ++i) {
            const Placed& e = placed[i];
            if (!e.reachTest || stuck[i] || !e.useTree || e.pose != int(pose)) continue;
            const StartPoint place = placeStart(*onion, int(pose), e.testedRef());
            const int32_t c = place.leaf >= 0 ? component[size_t(place.leaf)] : -1;
            if (fromStarts(c)) continue;
            notWalked[i] = true; // a closet a teleporter empties, or reported here
            if (c >= 0 && std::binary_search(teleported.begin(), teleported.end(), c)) continue;
            SpawnProblem p = problemFor(SpawnProblemKind::Unreachable, e);
            p.message = describe(*e.entity) +
                        (c < 0 ? " has no empty space around its place for pose " + poseName
                               : " cannot reach any player start for pose " + poseName) +
                        " (flying reach through portals; no trigger_teleport reached either)";
            problems.push_back(std::move(p));
        }
    }

    // No player start: a leak is still worth saying. As Quake's qbsp fills from the outside
    // and calls it a leak when any entity is reached, every point entity (lights, items,
    // monsters...) in empty space for the pose starts the flood; the problem names the first.
    // Without any, nothing is said: an empty leaf alone cannot tell the level's inside from
    // a pocket of the void between its outer walls and the world box.
    for (size_t pose = 0; pose < world.poses.size() && starts.empty() && onion; ++pose) {
        if (!treeHasPose(int(pose))) continue;
        std::vector<Vec3> points;
        const SpawnEntity* first = nullptr;
        for (const SpawnEntity& e : input.entities) {
            if (e.hasBrushes || !e.hasOrigin || !e.origin.allFinite() || !onion->bounds.contains(e.origin)) continue;
            if (placeStart(*onion, int(pose), e.origin).leaf < 0) continue;
            points.push_back(e.origin);
            if (!first) first = &e;
        }
        if (!first) continue;
        const Flood f = flood(*onion, int(pose), points);
        if (!f.leak) continue;
        SpawnProblem p;
        p.kind = SpawnProblemKind::Leak;
        p.entity = first->index;
        p.classname = first->classname;
        p.origin = first->origin;
        p.pose = int(pose);
        p.box = {first->origin + world.poses[pose].mins, first->origin + world.poses[pose].maxs};
        p.path = f.leakPath;
        p.hole = holeOf(f);
        p.message = "pose " + world.poses[pose].name + " leaks: with no player start, the space reachable from the " +
                    "entities (the first: " + describe(*first) + ") reaches the outside of the world box (a path of " +
                    std::to_string(p.path.size()) + " points)";
        problems.push_back(std::move(p));
    }

    auto sortProblems = [&] {
        std::stable_sort(problems.begin(), problems.end(), [](const SpawnProblem& a, const SpawnProblem& b) {
            return a.entity != b.entity ? a.entity < b.entity : a.kind < b.kind;
        });
    };
    sortProblems();
    if (input.walking && onion && !starts.empty()) { // walking needs the tree
        if (input.beforeWalking && !input.beforeWalking(problems)) return problems;
        std::vector<WalkGoal> goals;
        for (size_t k : starts) goals.push_back({placed[k].useTree ? placed[k].pose : -1, placed[k].entity->origin});
        std::vector<Walker> walkers;
        std::vector<size_t> walkerOf;
        for (size_t i = 0; i < placed.size(); ++i) {
            const Placed& e = placed[i];
            if (!e.reachTest || stuck[i] || notWalked[i] || !e.useTree || e.cls.motion != EntityMotion::Walk) continue;
            Walker w{e.pose, e.testedRef(), {}};
            for (size_t k = 0; k < starts.size(); ++k)
                if (canMeet(e, placed[starts[k]])) w.goals.push_back(int(k));
            if (w.goals.empty()) continue;
            walkers.push_back(std::move(w));
            walkerOf.push_back(i);
        }
        // The water the player swims in (not lava, which kills), and the pushes that carry it.
        PlayerMotion player;
        player.travel = input.travel;
        player.travelInOrder = input.travelInOrder;
        player.water = brushShapes(world.brushes, kSwumContents, world.bounds);
        for (const SpawnEntity& e : input.entities)
            if (!e.brushBounds.empty() && e.pushVelocity != Vec3::Zero() && e.pushVelocity.allFinite())
                player.pushes.push_back({e.brushBounds, e.pushVelocity});
        const std::vector<bool> meets = walkersMeetingGoals(*onion, world.poses, goals, walkers, player, input.navMeshes);
        for (size_t k = 0; k < walkers.size(); ++k) {
            if (meets[k]) continue;
            const Placed& e = placed[walkerOf[k]];
            const Pose& pose = world.poses[size_t(e.pose)];
            SpawnProblem p = problemFor(SpawnProblemKind::UnreachableWalking, e);
            p.message = describe(*e.entity) + " never meets the player on foot: no floor it walks to (pose " + pose.name +
                        ": " + navSettingsSummary(pose.nav) + ") is walked or swum to from a player start" +
                        (input.travel ? " (it could fly there through the portals; the player opens doors and rides lifts, "
                                        "trains and teleporters)"
                                      : " (it could fly there through the portals; doors and lifts are not walked)");
            problems.push_back(std::move(p));
        }
    }
    sortProblems();
    return problems;
}

} // namespace shallot
