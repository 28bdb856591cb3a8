#include "services/mover_states.h"

#include "editor.h"
#include "mover_state_batches.h"
#include "check/mover_checks.h"
#include "edit/brush_operations.h"
#include "movers/build_movers.h"
#include "movers/entity_graph.h"
#include "movers/placed_movers.h"
#include "movers/swept_brush.h"

#include <array>
#include <utility>

namespace shallot {

namespace {

// While playing, the world is compiled with the movers where the simulation has them at
// most this often (and only when the compiler is idle): a compile of id_e1m1's moved
// doors takes tens of milliseconds, and an edit made meanwhile must not wait behind them.
constexpr qint64 kPlayCompileMs = 250;

constexpr std::array<std::pair<MoverPlacement, const char*>, 5> kPlacementNames{{{MoverPlacement::Spawn, "spawn"},
                                                                                 {MoverPlacement::Closed, "closed"},
                                                                                 {MoverPlacement::Open, "open"},
                                                                                 {MoverPlacement::Time, "time"},
                                                                                 {MoverPlacement::LeftOut, "out"}}};

bool sameBrushes(const std::vector<Brush>& a, const std::vector<Brush>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].contents != b[i].contents || !samePlanes(a[i], b[i])) return false;
    return true;
}

} // namespace

const char* moverPlacementName(MoverPlacement placement) {
    for (const auto& [p, name] : kPlacementNames)
        if (p == placement) return name;
    return "spawn";
}

std::optional<MoverPlacement> moverPlacementNamed(std::string_view name) {
    for (const auto& [p, n] : kPlacementNames)
        if (name == n) return p;
    return std::nullopt;
}

MoverStates::MoverStates(Editor& editor) : QObject(&editor), editor_(editor) {
    EditorDocument& document = editor_.document();
    // A new document emits both: its movers are built twice.
    connect(&document, &EditorDocument::entitiesChanged, this, &MoverStates::rebuildMovers);
    connect(&document, &EditorDocument::gameChanged, this, &MoverStates::rebuildMovers);
    connect(&editor_.compiler(), &CompileService::compiled, this, &MoverStates::mainCompiled);
    connect(&staticCompiler_, &CompileService::compiled, this, &MoverStates::setStatic);
    playCompileClock_.start();
}

MoverStates::~MoverStates() = default;

bool MoverStates::compiledIn() const { return !placedBrushes_.empty(); }

void MoverStates::setPlacement(MoverPlacement placement, double seconds) {
    if (placement == placement_ && seconds == seconds_) return;
    placement_ = placement;
    seconds_ = seconds;
    if (!playing_) applyOffsets(chosenOffsets(), false);
    emit changed();
}

void MoverStates::setSweptShown(bool shown) {
    if (shown == sweptShown_) return;
    sweptShown_ = shown;
    editor_.scene().setVisible(render::Layer::MoverSwept, shown);
    emit editor_.sceneChanged();
    emit changed();
}

std::vector<Vec3> MoverStates::chosenOffsets() const {
    std::vector<Vec3> out;
    out.reserve(movers_.movers.size());
    for (const Mover& m : movers_.movers) {
        switch (placement_) {
        case MoverPlacement::Spawn: out.push_back(m.offsetAt(m.spawn)); break;
        case MoverPlacement::Closed: out.push_back(m.offsetAt(MoverState::closed())); break;
        case MoverPlacement::Open: out.push_back(m.offsetAt(MoverState::open())); break;
        case MoverPlacement::Time: out.push_back(m.offsetAtTime(seconds_)); break;
        case MoverPlacement::LeftOut: out.push_back(Vec3::Zero()); break;
        }
    }
    return out;
}

void MoverStates::rebuildMovers() {
    const DocumentData& data = editor_.document().data();
    const MapFile map = mapOfDocumentEntities(data.entities, data.game, data.worldKeys);
    movers_ = buildMovers(map);
    firingRules_ = buildFiringRules(map, movers_.movers, buildEntityGraph(map));
    applyOffsets(chosenOffsets(), false);
    rebuildSwept();
}

void MoverStates::applyOffsets(std::vector<Vec3> offsets, bool throttled) {
    offsets_ = std::move(offsets);
    // Left out, they are drawn where the file has them, but where the simulation has them
    // while playing (its movers run whatever the dock says).
    const bool placed = placement_ != MoverPlacement::LeftOut;
    std::vector<std::pair<int, Vec3>> drawn;
    for (size_t i = 0; i < movers_.movers.size() && i < offsets_.size(); ++i) {
        const Mover& m = movers_.movers[i];
        if ((placed || playing_) && offsets_[i] != Vec3::Zero()) drawn.emplace_back(m.entity - 1, offsets_[i]);
    }
    std::vector<Brush> brushes = placed ? placedMoverBrushes(movers_.movers, offsets_) : std::vector<Brush>{};
    editor_.setEntityOffsets(std::move(drawn));
    const bool changed = !sameBrushes(brushes, placedBrushes_);
    if (changed) placedBrushes_ = std::move(brushes);
    const CompileService& compiler = editor_.compiler();
    if (throttled) {
        if (compiler.busy() || playCompileClock_.elapsed() < kPlayCompileMs) return;
        if (compiler.latest() && compiledAsPlaced(*compiler.latest())) return;
        requestCompile();
        return;
    }
    // A compile running now (an edit's, a stored tree adopted) is followed by one with the
    // movers placed, if it lacks them, once it is shown (mainCompiled).
    if (changed && !compiler.busy()) requestCompile();
}

bool MoverStates::compiledAsPlaced(const CompiledWorld& compiled) const {
    const size_t own = editor_.document().brushes().size();
    if (compiled.world.brushes.size() != own + placedBrushes_.size()) return false;
    for (size_t i = 0; i < placedBrushes_.size(); ++i) {
        const Brush& b = compiled.world.brushes[own + i];
        if (b.contents != placedBrushes_[i].contents || !samePlanes(b, placedBrushes_[i])) return false;
    }
    return true;
}

World MoverStates::withMovers(World world) const {
    world.brushes.insert(world.brushes.end(), placedBrushes_.begin(), placedBrushes_.end());
    return world;
}

void MoverStates::requestCompile() {
    CompileService& compiler = editor_.compiler();
    // A queued edit's compile, or a drag's next preview, takes the movers as they are now.
    if (compiler.awaitingSnapshot() || isPreviewRevision(compiler.newestRevision())) return;
    const EditorDocument& document = editor_.document();
    playCompileClock_.restart();
    compiler.request(withMovers(document.data().world), document.worldRevision());
}

void MoverStates::showPlayOffsets(std::vector<Vec3> offsets) {
    if (offsets.size() != movers_.movers.size()) return; // the entities changed meanwhile
    playing_ = true;
    applyOffsets(std::move(offsets), true);
}

void MoverStates::endPlay() {
    if (!playing_) return;
    playing_ = false;
    applyOffsets(chosenOffsets(), false);
}

void MoverStates::mainCompiled(const std::shared_ptr<const CompiledWorld>& result) {
    const DocumentData& data = editor_.document().data();
    const bool preview = isPreviewRevision(result->revision);
    const bool current = !preview && result->revision == editor_.document().worldRevision();
    // Compiled without the movers: a stored tree adopted, or a world from before they were placed.
    const bool alone = result->world.brushes.size() == data.world.brushes.size();
    if (!compiledIn()) {
        if (preview || alone) setStatic(result);
    } else if (current && alone) {
        setStatic(result);
    } else if (current && !(staticWorld_ && staticWorld_->revision == result->revision)) {
        staticCompiler_.request(data.world, result->revision);
    }
    if (current && !playing_ && !compiledAsPlaced(*result)) requestCompile();
}

void MoverStates::setStatic(std::shared_ptr<const CompiledWorld> world) {
    staticWorld_ = std::move(world);
    emit staticCompiled(staticWorld_);
}

void MoverStates::rebuildSwept() {
    const Aabb& bounds = editor_.document().data().world.bounds;
    std::vector<BrushGeometry> volumes;
    for (const Mover& m : movers_.movers) {
        const std::vector<Vec3>& stops = m.motion.stops;
        if (m.kind == MoverKind::Static || stops.size() < 2) continue;
        std::vector<std::pair<Vec3, Vec3>> moves;
        for (size_t s = 0; s + 1 < stops.size(); ++s) moves.emplace_back(stops[s], stops[s + 1]);
        if (m.motion.loopsTo >= 0 && size_t(m.motion.loopsTo) + 1 < stops.size())
            moves.emplace_back(stops.back(), stops[size_t(m.motion.loopsTo)]);
        for (const Brush& b : m.brushes) {
            if (b.contents == BrushContents::NonSolid) continue; // origin brushes, illusionary
            const BrushGeometryResult g = buildBrushGeometry(b, bounds);
            if (!g.geometry) continue;
            for (const auto& [from, to] : moves)
                if (BrushGeometryResult swept = buildBrushGeometry(sweptBrush(*g.geometry, from, to), bounds); swept.geometry)
                    volumes.push_back(std::move(*swept.geometry));
        }
    }
    editor_.scene().set(render::Layer::MoverSwept, render::buildMoverSweptBatch(volumes));
    editor_.scene().setVisible(render::Layer::MoverSwept, sweptShown_);
    emit editor_.sceneChanged();
}

} // namespace shallot
