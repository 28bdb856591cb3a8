#pragma once
// Shallot's runtime for game code and tools: load a compiled level (.obsp) and ask it
// where each agent pose may go. Standard C++20 only (no Eigen, no Qt); link Shallot::core.
//
// Errors are values: no call throws. Every query returns a Result whose `error` is empty
// on success and says what was wrong otherwise (a bad pose index, a non-finite point, a
// box sweep on a file without brushes, ...); on error `value` is default-constructed.
//
// Thread safety: a loaded Tree is immutable. Any number of threads may query one Tree (or
// copies of it, which share the data) at once. Loading and compiling are independent.
// See docs/runtime.md.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace shallot::runtime {

struct Vec3 {
    double x = 0.0, y = 0.0, z = 0.0;
};

// An answer, or why there is none.
template <class T>
struct Result {
    T value{};
    std::string error; // empty on success
    bool ok() const { return error.empty(); }
    explicit operator bool() const { return ok(); }
};

// A call that answers only success or failure.
struct Status {
    std::string error; // empty on success
    bool ok() const { return error.empty(); }
    explicit operator bool() const { return ok(); }
};

// An agent pose: the box it occupies around its reference point. mins == maxs is a point.
struct PoseBox {
    std::string name;
    Vec3 mins, maxs;
};

// The leaf a point is in and its solidity: bit p set when the box of poses()[p] placed at
// the point overlaps the inside of a brush that blocks it.
struct Classification {
    int32_t leaf = 0;
    uint64_t solid = 0;
    bool solidFor(int pose) const { return pose >= 0 && pose < 64 && ((solid >> pose) & 1u); }
};

// A sweep from -> to. startSolid: the start is inside solid (t 0, point = from, hit
// false); allSolid: and the whole segment is. hit: the box's reference point touches solid
// at t in [0, 1) (not backed off), point = from + t (to - from), normal = the unit normal
// of the surface entered, facing against the motion. No hit: t 1, point = to, normal 0.
struct Hit {
    bool startSolid = false;
    bool allSolid = false;
    bool hit = false;
    double t = 1.0;
    Vec3 point, normal;
};

// A surface a move touched, at move time t in [0, 1].
struct Contact {
    Vec3 point, normal;
    double t = 0.0;
};

// Collide and slide: where the box ends (never inside solid), what it touched in time
// order, whether it started inside solid (then end = from) and whether it stepped up.
struct Move {
    Vec3 end;
    std::vector<Contact> contacts;
    bool startSolid = false;
    bool stepped = false;
};

// Whether an agent can get between two points over the tree's open portals; a point in
// solid for the pose has leaf -1 and is reachable from nowhere.
struct Reach {
    bool reachable = false;
    int32_t fromLeaf = -1;
    int32_t toLeaf = -1;
};

// What an agent in one pose reaches from a point over the open portals (shallot-cli reach).
struct Region {
    int32_t startLeaf = -1;     // -1: the start is in solid for the pose, nothing is reached
    size_t reachedLeaves = 0;
    double volume = 0.0;        // of the reached leaves' cells
    bool leak = false;          // it reaches the world box: the level is open to the void
    std::vector<Vec3> leakPath; // on a leak: the start, portal centres, a point on the world box
    std::vector<bool> reached;  // per leaf; a point p is in the region when reached[classify(p).leaf]
};

// The walking path of an agent in one pose (Quake's ground, step and drop rules): its
// corners, each where the pose's reference point rests on a floor (a step or drop is its
// takeoff point, then its landing point). Not found: length 0, no points.
struct Path {
    bool found = false;
    double length = 0.0;
    std::vector<Vec3> points;
};

// A path with typed travel (docs/movers.md, "Travel"): the walking path's corners, its time
// at Quake's speeds and its parts in order: "walk", "step", "drop", "jump", and through the
// level's movers and triggers "door", "plat", "train", "teleport", "push" (with the
// mover's, teleporter's or push's entity; -1 on walking parts and pushes).
struct RouteStep {
    std::string type;
    Vec3 from, to;
    double seconds = 0.0;
    int32_t entity = -1;
};
struct Route {
    bool found = false;
    double length = 0.0;
    double seconds = 0.0;
    std::vector<Vec3> points;
    std::vector<RouteStep> steps; // consecutive walking joined
};

// Whether one point may see another, for the tree's sight pose (its point pose at the
// reference point: what the eye sees); shallot-cli query's "visible" op, docs/visibility.md.
struct Visibility {
    bool pvs = true;       // the leaf of `to` is in the PVS of the leaf of `from`; true when not known
    bool pvsKnown = false; // the tree has a PVS (hasPvs()) and neither point is in solid for the sight pose
    bool clear = false;    // the segment from -> to meets no solid of the sight pose (an exact trace)
    int32_t fromLeaf = 0, toLeaf = 0;
};

// An agent that is not a box (docs/round_poses.md): an ellipsoid (radius across, radius
// up, centred on the reference point) or a vertical capsule (radius, total height with its
// caps, reference point at its centre). Sizes are in [0.1, 65536]; a capsule is at least
// as tall as it is wide.
struct RoundPose {
    enum class Shape : uint8_t { Ellipsoid, Capsule };
    std::string name;
    Shape shape = Shape::Capsule;
    double radius = 0.0; // across (x and y)
    double height = 0.0; // ellipsoid: its radius up; capsule: its total height
    // A pose from shallot-cli's text: "ellipsoid:R,H" or "capsule:R,HEIGHT"; the error
    // ("capsule height 20 is shorter than its diameter 32", ...) otherwise.
    static Result<RoundPose> parse(std::string name, std::string_view shape);
};

// A mover of the level (docs/movers.md): a door, secret door, plat, train or button, or a
// brush entity that stays (func_wall and friends), each its own tree in its own frame,
// placed by its state. A .obsp has them when shallot-cli compile -o (or Tree::compileMap
// and save) wrote it from a .map (format version 6).
struct Mover {
    int32_t entity = -1;   // its entity index in the .map (worldspawn 0): what a MoverSetting names
    std::string classname; // "func_door"
    std::string kind;      // "door", "secret_door", "plat", "train", "button" or "static"
    std::string spawn;     // its state when the level starts ("closed", "open", "corner 0")
    size_t stops = 1;      // the places it stops at (a door 2, a train one per corner)
    Vec3 mins, maxs;       // its brushes' box where the file draws them
};

// Where a mover is: Closed (its first stop), Open (its last), a fraction in [0, 1] along
// its stops by length, or Corner N (stop N: a train's N-th corner; past the last, the last).
// The states of shallot-cli query's "movers" field ("closed", "open", F, "corner N").
struct MoverState {
    enum class Kind : uint8_t { Closed, Open, Fraction, Corner };
    Kind kind = Kind::Closed;
    double fraction = 0.0; // Fraction only
    int32_t corner = 0;    // Corner only
    static MoverState closed() { return {}; }
    static MoverState open() { return {Kind::Open, 1.0, 0}; }
    static MoverState at(double fraction) { return {Kind::Fraction, fraction, 0}; }
    static MoverState atCorner(int32_t corner) { return {Kind::Corner, 0.0, corner}; }
    // "closed", "open", "corner N" or a number in [0, 1] ("0.25"); an error otherwise.
    static Result<MoverState> parse(std::string_view text);
};

// One mover (by entity index) at one state.
struct MoverSetting {
    int32_t entity = -1;
    MoverState state;
};

// A trace against the world and the movers (traceWithMover): the hit as trace() answers
// it, and the entity of the mover it came from (its surface was hit, or the start is inside
// it); -1 when it came from the world or nothing was hit.
struct MoverHit {
    Hit hit;
    int32_t mover = -1;
};

// Query coordinates (points, box corners, deltas, step heights) must be finite and within
// +-this: far outside any world, and small enough that no product in a trace overflows.
// The same limit as shallot-cli query's.
inline constexpr double kMaxCoordinate = 1e9;

class Tree {
public:
    Tree(); // empty: no poses; every query answers the error "no tree loaded"

    // Loads an .obsp file, memory-mapped (read from the mapping, then unmapped: the tree is
    // decoded into its own arrays) or read when it cannot be mapped.
    static Result<Tree> loadFile(const std::string& path);
    // Loads an .obsp image already in memory; the bytes are not kept.
    static Result<Tree> loadBuffer(const void* data, size_t size);
    // Compiles a Quake .map. With no poses: the map's worldspawn poses, else Quake's three
    // hulls (point, player, large). The tree keeps the map's brushes for traceBox and save,
    // and its movers (each compiled on its own) and entities, at their spawn states.
    // Skipped brushes and map warnings are in warnings().
    static Result<Tree> compileMap(const std::string& mapPath, const std::vector<PoseBox>& poses = {},
                                   int threads = 1);
    // Writes the tree as .obsp (with its brushes section when it has brushes and `brushes`,
    // its PVS when it has one, and its movers when it has them).
    Status save(const std::string& path, bool brushes = true) const;
    // The same tree with the potentially visible set of its sight pose computed (as
    // shallot-cli vis: the full flow, or the base flow when !fullFlow); needs the brushes.
    Result<Tree> withPvs(bool fullFlow = true, int threads = 1) const;

    const std::vector<PoseBox>& poses() const;
    int poseIndex(std::string_view name) const; // -1 when there is no such pose
    bool hasBrushes() const;                    // traceBox works
    bool hasPvs() const;                        // visible() knows the PVS (stored by shallot-cli vis, or withPvs)
    const std::vector<std::string>& warnings() const;

    Result<Classification> classify(const Vec3& point) const;
    // Sweeps the box of poses()[pose] (from == to gives the point's solidity as startSolid).
    Result<Hit> trace(int pose, const Vec3& from, const Vec3& to) const;
    // Sweeps any box (mins <= maxs). A box equal to a pose's box (that no brush exempts) is
    // swept in the tree, like trace; any other needs the brushes (hasBrushes()) and meets
    // the movers at their states through their brushes.
    Result<Hit> traceBox(const Vec3& mins, const Vec3& maxs, const Vec3& from, const Vec3& to) const;
    // Moves the pose's box by delta with collide-and-slide; stepHeight > 0 climbs stairs.
    Result<Move> move(int pose, const Vec3& from, const Vec3& delta, double stepHeight = 0.0) const;
    Result<Reach> reach(int pose, const Vec3& from, const Vec3& to) const;
    // reach through the world with the movers placed at moverStates() (where the level
    // spawns them unless withMovers placed them): the world's brushes and the movers' are
    // compiled together on the first call (about as long as compiling the level; kept for
    // the tree's later calls), so a closed door from floor to ceiling cuts the level in two.
    // The leaves are that tree's (shallot-cli query's reach with "movers"). Without movers
    // it is reach(). Needs the brushes (hasBrushes()).
    Result<Reach> reachWithMovers(int pose, const Vec3& from, const Vec3& to) const;
    // Everything the pose reaches from `from` (a start just inside a surface is nudged out
    // by at most 1/8 unit, as a Quake player start standing on the floor needs).
    Result<Region> reachFrom(int pose, const Vec3& from) const;
    // The walking path from `from` to `to`, each dropped straight down onto the floor below
    // it first (shallot-cli query's "path" op: the same answer). The pose's walkable surfaces
    // are built on its first path query (tens of milliseconds), then kept.
    Result<Path> path(int pose, const Vec3& from, const Vec3& to) const;
    // The path with typed travel: shallot-cli query's "path" op with its default "travel"
    // (through doors their triggers, buttons or keys open, riding plats and trains, through
    // teleporters and pushes), over the movers and entities a .obsp stores (compile -o of a
    // .map) or compileMap read; without them, the walking path (path()'s points). Doors are
    // opened by what the route reaches first, whatever withMovers placed them at. The
    // pose's travel links are built on its first travelPath (about a second on id_e1m1).
    Result<Route> travelPath(int pose, const Vec3& from, const Vec3& to) const;
    // Whether `from` may see `to` (from == to asks whether the point is empty). Without a
    // PVS the answer has pvsKnown false; a tree without a sight pose answers an error.
    Result<Visibility> visible(const Vec3& from, const Vec3& to) const;
    size_t leafCount() const;

    // Batches over n points stored x, y, z, x, y, z, ...: the same answers as one by one.
    // solid[i] receives classify(point i).value.solid, and leaves[i] (when not null) its leaf.
    Status classifyBatch(const double* points, size_t n, uint64_t* solid, int32_t* leaves = nullptr) const;
    // out[i] receives trace(pose, from i, to i).value; threads > 1 splits long batches.
    // An invalid row fails the whole batch (the message names the row) and writes nothing.
    Status traceBatch(int pose, const double* from, const double* to, size_t n, Hit* out, int threads = 1) const;
    // The same answers written column by column (n entries each; point and normal 3n),
    // as NumPy wants them: no array of Hit in between.
    struct HitColumns {
        bool* startSolid;
        bool* allSolid;
        bool* hit;
        double* t;
        double* point;
        double* normal;
    };
    Status traceBatch(int pose, const double* from, const double* to, size_t n, const HitColumns& out,
                      int threads = 1) const;

    // visible() for n pairs, written column by column (n entries each); threads > 1
    // splits the segments' traces of long batches. A bad row fails the whole batch.
    struct VisibilityColumns {
        bool* pvs;
        bool* pvsKnown;
        bool* clear;
        int32_t* fromLeaf;
        int32_t* toLeaf;
    };
    Status visibleBatch(const double* from, const double* to, size_t n, const VisibilityColumns& out,
                        int threads = 1) const;

    // The level's movers in file order (none for a file without them). classify, trace,
    // traceBox of a pose's box, move and their batches answer for the world plus every mover
    // at its state: where the level spawns it, unless withMovers placed it (as shallot-cli
    // query does, its "movers" field). reach, reachFrom, path and visible answer for the
    // world alone, as the runtime did before movers (reachWithMovers and travelPath meet
    // them).
    const std::vector<Mover>& movers() const;
    // The same level with the movers at `states` (by entity index; a mover not named is
    // where the level spawns it, whatever this tree's states are). The level's data is
    // shared: it costs a placement and a grid over the movers, not a copy. Errors: an entity
    // that is no mover, one named twice, a fraction that is not a number in [0, 1], a
    // negative corner.
    Result<Tree> withMovers(const std::vector<MoverSetting>& states) const;
    // This tree's mover states, one per mover in movers() order.
    const std::vector<MoverSetting>& moverStates() const;
    // As trace(), also naming the mover the answer came from.
    Result<MoverHit> traceWithMover(int pose, const Vec3& from, const Vec3& to) const;

    // The same tree with `round` poses after its own poses (they replace any round poses
    // this tree had): poses() lists each under its name with its bounding box, and
    // classify (its bit), trace, traceBatch, traceWithMover, move and moveBatch answer it
    // exactly against the brushes, as shallot-cli query answers --pose NAME=capsule:R,H
    // (query/round_pose_world.h), the movers at their states included. Needs the brushes
    // (hasBrushes()). reach, reachFrom and path refuse a round pose (query walks its box).
    // save() leaves them out (.obsp stores boxes). Errors: no brushes, an invalid shape, a
    // name that is empty or taken, more than 64 poses in all.
    Result<Tree> withRoundPoses(const std::vector<RoundPose>& round) const;
    // The round poses withRoundPoses added (poses()[poses().size() - n + i] is round[i]).
    const std::vector<RoundPose>& roundPoses() const;

    struct Impl; // opaque: the decoded tree, the brushes, the PVS and the movers

    // n moves of the pose's box (many agents, one step each), as move() one by one, written
    // column by column: end (3n), startSolid, stepped and the number of contacts (n each).
    struct MoveColumns {
        double* end;
        bool* startSolid;
        bool* stepped;
        uint32_t* contacts;
    };
    Status moveBatch(int pose, const double* from, const double* delta, size_t n, double stepHeight,
                     const MoveColumns& out) const;

private:
    explicit Tree(std::shared_ptr<const Impl> impl);
    std::shared_ptr<const Impl> impl_;
};

} // namespace shallot::runtime
