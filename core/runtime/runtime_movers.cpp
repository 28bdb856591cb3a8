// The runtime's movers (<shallot/runtime.h>: movers, withMovers, moverStates,
// MoverState::parse) and the level they share: its placements are scenes of the collision
// world (objects/collision_scene.h) over the movers a .obsp stores or compileMap built.
#include "runtime/runtime_results.h"
#include "runtime/tree_impl.h"

#include "compile/compiler.h"
#include "movers/build_movers.h"
#include "movers/placed_movers.h"

namespace shallot::runtime {

namespace {

MoverState fromCore(const shallot::MoverState& s) {
    switch (s.type) {
    case shallot::MoverState::Type::Closed: return MoverState::closed();
    case shallot::MoverState::Type::Open: return MoverState::open();
    case shallot::MoverState::Type::Fraction: return MoverState::at(s.fraction);
    case shallot::MoverState::Type::Corner: return MoverState::atCorner(s.corner);
    }
    return {};
}

// The core state of a runtime one, or nothing when it is out of range (NaN, outside [0, 1],
// a negative corner, an unknown kind).
std::optional<shallot::MoverState> toCore(const MoverState& s) {
    switch (s.kind) {
    case MoverState::Kind::Closed: return shallot::MoverState::closed();
    case MoverState::Kind::Open: return shallot::MoverState::open();
    case MoverState::Kind::Fraction:
        if (!(s.fraction >= 0.0 && s.fraction <= 1.0)) return std::nullopt; // NaN too
        return shallot::MoverState::at(s.fraction);
    case MoverState::Kind::Corner:
        if (s.corner < 0) return std::nullopt;
        return shallot::MoverState::atCorner(s.corner);
    }
    return std::nullopt;
}

} // namespace

// The movers' states of `impl` as withMovers takes them.
std::map<int, shallot::MoverState> currentSettings(const Tree::Impl& impl) {
    std::map<int, shallot::MoverState> out;
    for (const MoverSetting& m : impl.states) out[m.entity] = *toCore(m.state);
    return out;
}

std::shared_ptr<Tree::Impl::Level> makeLevel(BspTree tree, std::optional<World> world, std::vector<std::string> warnings,
                                             std::optional<TreePvs> pvs, std::shared_ptr<const ObspMovers> movers) {
    auto level = std::make_shared<Tree::Impl::Level>();
    level->tree = std::move(tree);
    level->world = std::move(world);
    level->warnings = std::move(warnings);
    level->pvs = std::move(pvs);
    level->movers = std::move(movers);
    for (const Pose& p : level->tree.poses) level->poses.push_back({p.name, fromEigen(p.mins), fromEigen(p.maxs)});
    if (!level->movers) return level;
    const LevelObjects& objects = level->movers->level;
    for (const shallot::Mover& m : objects.movers.movers)
        level->moverList.push_back({m.entity, m.classname, moverKindName(m.kind), formatMoverState(m.spawn),
                                    m.motion.stops.size(), fromEigen(m.bounds.mins), fromEigen(m.bounds.maxs)});
    if (objects.objects.empty()) return level;
    auto spawn = std::make_shared<CollisionScene>(level->tree, objects.pointers());
    const std::vector<shallot::Vec3> offsets = objects.offsets();
    for (size_t i = 0; i < offsets.size(); ++i) spawn->setObjectOffset(i, offsets[i]);
    spawn->rebuildGrid();
    level->spawnScene = std::move(spawn);
    level->moverShapes = std::make_unique<const MoverShapes>(objects.movers.movers, level->tree.bounds);
    return level;
}

Tree::Impl::Impl(std::shared_ptr<Level> l, const std::map<int, shallot::MoverState>& settings,
                 std::shared_ptr<const RoundPoses> r)
    : level(std::move(l)), tree(level->tree), world(level->world), warnings(level->warnings), pvs(level->pvs),
      round(std::move(r)), poses(level->poses) {
    if (round)
        for (const std::unique_ptr<const RoundPoseWorld>& exact : round->exact)
            poses.push_back({exact->pose().name, fromEigen(exact->pose().mins), fromEigen(exact->pose().maxs)});
    if (level->spawnScene) {
        const LevelObjects& objects = level->movers->level;
        if (settings.empty()) {
            scene = level->spawnScene;
        } else {
            auto placed = std::make_shared<CollisionScene>(*level->spawnScene);
            const std::vector<shallot::Vec3> offsets = objects.offsets(settings);
            for (size_t i = 0; i < offsets.size(); ++i) placed->setObjectOffset(i, offsets[i]);
            placed->rebuildGrid();
            scene = std::move(placed);
        }
        for (const shallot::Mover& m : objects.movers.movers) {
            const auto it = settings.find(m.entity);
            states.push_back({m.entity, fromCore(it != settings.end() ? it->second : m.spawn)});
        }
    }
    if (!round) return;
    for (const std::unique_ptr<const RoundPoseWorld>& exact : round->exact)
        roundWithMovers.push_back(std::make_unique<const PlacedMoveSpaces>(
            *exact, scene ? level->moverShapes->roundParts(exact->pose(), scene->objectOffsets()) : std::vector<PlacedSpace>{}));
}

const std::vector<Mover>& Tree::movers() const {
    static const std::vector<Mover> none;
    return impl_ ? impl_->level->moverList : none;
}

const std::vector<MoverSetting>& Tree::moverStates() const {
    static const std::vector<MoverSetting> none;
    return impl_ ? impl_->states : none;
}

Result<Tree> Tree::withMovers(const std::vector<MoverSetting>& states) const {
    return guarded<Result<Tree>>([&] {
        if (!impl_) return failure<Tree>("no tree loaded");
        const std::shared_ptr<const ObspMovers>& movers = impl_->level->movers;
        std::map<int, shallot::MoverState> wanted;
        for (const MoverSetting& m : states) {
            if (!movers || !movers->level.movers.forEntity(m.entity))
                return failure<Tree>("no mover at entity " + std::to_string(m.entity) +
                                     (movers ? "" : " (this tree has no movers: compile it from a .map with this version)"));
            const std::optional<shallot::MoverState> state = toCore(m.state);
            if (!state)
                return failure<Tree>("the state of entity " + std::to_string(m.entity) +
                                     " must be closed, open, a fraction in [0, 1] or a corner >= 0");
            if (!wanted.emplace(m.entity, *state).second)
                return failure<Tree>("entity " + std::to_string(m.entity) + " is named twice");
        }
        return success(Tree(std::make_shared<const Impl>(impl_->level, wanted, impl_->round)));
    });
}

const Tree::Impl::PlacedWorld& Tree::Impl::placedWorld() const {
    std::call_once(placedWorldOnce, [&] {
        if (!world) {
            placed.error = "reach with movers needs the brushes: this tree was saved without them";
            return;
        }
        CompileResult compiled = compileWorld(worldWithMovers(*world, level->movers->level.movers.movers, scene->objectOffsets()));
        if (compiled.error.empty()) placed.tree = std::move(compiled.onion);
        else placed.error = "the level with its movers placed does not compile: " + compiled.error;
    });
    return placed;
}

Result<MoverState> MoverState::parse(std::string_view text) {
    Result<MoverState> r;
    const std::optional<shallot::MoverState> s = parseMoverState(text);
    if (!s) r.error = "a mover state is \"closed\", \"open\", a number in [0, 1] or \"corner N\", not \"" + std::string(text) + "\"";
    else r.value = fromCore(*s);
    return r;
}

} // namespace shallot::runtime
