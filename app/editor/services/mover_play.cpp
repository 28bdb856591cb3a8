#include "services/mover_play.h"

#include "editor.h"
#include "mover_state_batches.h"
#include "services/background_priority.h"
#include "services/mover_states.h"
#include "objects/agent_simulation.h"
#include "objects/level_objects.h"

#include <chrono>

namespace shallot {

namespace {

// How often the views show the newest step (milliseconds): about 30 frames a second.
constexpr int kFrameMs = 33;
// The simulation runs in real time; when it falls behind by more than this (a slow
// machine, a compile taking both cores) it drops the lag rather than rushing to catch up.
constexpr double kMaxLagSeconds = 0.25;
// Agents' random start places and goals: the same run every time, as simulate's --seed 1.
constexpr uint64_t kPlaySeed = 1;
// A quarter of the goals Play's agents pick are the level's buttons, triggers, touch fields
// and teleporters (simulate's --seek 0.25): what sets the level going is used, as a player
// would, and not only when a random walk passes it.
constexpr double kPlaySeekShare = 0.25;
// The longest the simulation thread sleeps before it looks at its stop flag again.
constexpr std::chrono::milliseconds kNap{5};

} // namespace

MoverPlay::MoverPlay(Editor& editor) : QObject(&editor), editor_(editor) {
    frameTimer_.setInterval(kFrameMs);
    connect(&frameTimer_, &QTimer::timeout, this, &MoverPlay::showNewest);
    editor_.scene().setVisible(render::Layer::Agents, false);
    // Another document: the run is of a level that is gone.
    connect(&editor_.document(), &EditorDocument::documentReset, this, &MoverPlay::stop);
    // Entities or brushes edited while playing: the run starts again on the edited level
    // (a brush edit is seen when the world without the movers is compiled again).
    connect(&editor_.document(), &EditorDocument::entitiesChanged, this, &MoverPlay::restart);
    connect(&editor_.moverStates(), &MoverStates::staticCompiled, this, [this](const std::shared_ptr<const CompiledWorld>& world) {
        if (world && runRevision_ != world->revision) restart();
    });
}

void MoverPlay::restart() {
    if (!playing_) return;
    const int agents = agents_;
    stop();
    start(agents);
}

MoverPlay::~MoverPlay() {
    if (stop_) *stop_ = true;
    if (worker_.joinable()) worker_.join();
}

bool MoverPlay::start(int agents) {
    if (playing_) return true;
    const std::shared_ptr<const CompiledWorld> world = editor_.moverStates().staticWorld();
    if (!world || !world->result->error.empty() || world->result->onion.poses.empty()) {
        emit editor_.statusMessage("Play: the level is not compiled yet");
        return false;
    }
    if (worker_.joinable()) worker_.join();
    agents_ = agents;
    runRevision_ = world->revision;
    const int pose = editor_.currentPose();
    SimulationOptions options;
    options.agents = std::max(0, agents);
    options.seed = kPlaySeed;
    options.threads = 1; // the other core is the UI's and the compiles'
    // With "At time" chosen the run begins there, the movers where the dock shows them.
    const MoverStates& states = editor_.moverStates();
    options.startSeconds = states.placement() == MoverPlacement::Time ? states.seconds() : 0.0;
    if (pose >= 0 && size_t(pose) < world->result->onion.poses.size() && !world->result->onion.poses[size_t(pose)].isPoint())
        options.poses = {pose};
    auto stop = std::make_shared<std::atomic<bool>>(false);
    stop_ = stop;
    playing_ = true;
    {
        std::lock_guard lock(mutex_);
        newest_ = Frame{};
        newest_.moverOffsets = editor_.moverStates().offsets();
        fresh_ = false;
    }
    shown_ = Frame{};
    LevelMovers movers = editor_.moverStates().movers();
    // From the level's start the movers run as the game fires them; from "At time" they
    // keep the dock's clock, cycling. The teleporters run either way.
    fired_ = states.placement() != MoverPlacement::Time;
    FiringRules rules = states.firingRules();
    std::vector<Aabb> places = workingPlaces(movers.movers, rules);
    options.seekShare = kPlaySeekShare;
    worker_ = std::thread([this, world, movers = std::move(movers), rules = std::move(rules), places = std::move(places),
                           fired = fired_, options, stop]() mutable {
        lowerThreadPriority();
        const BspTree& tree = world->result->onion;
        const LevelObjects level = buildLevelObjects(std::move(movers), tree.poses, world->world.bounds, 1);
        CollisionScene scene(tree, level.pointers());
        const std::vector<Vec3> spawn = level.offsets();
        for (size_t i = 0; i < spawn.size(); ++i) {
            const Mover& m = level.movers.movers[i];
            const bool later = options.startSeconds > 0.0 && m.kind != MoverKind::Static;
            scene.setObjectOffset(i, later ? m.offsetAtTime(options.startSeconds) : spawn[i]);
        }
        scene.rebuildGrid();
        options.movers = &level.movers.movers;
        if (fired) options.firing = &rules;
        options.teleports = &rules.teleports;
        options.seekPlaces = &places;
        AgentSimulation simulation(scene, options);
        using Clock = std::chrono::steady_clock;
        Clock::time_point begin = Clock::now();
        int sinceBegin = 0;
        while (!*stop) {
            const Clock::time_point due =
                begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(sinceBegin * options.stepSeconds));
            const auto now = Clock::now();
            if (now < due) {
                std::this_thread::sleep_for(std::min<Clock::duration>(due - now, kNap));
                continue;
            }
            if (std::chrono::duration<double>(now - due).count() > kMaxLagSeconds) {
                begin = now;
                sinceBegin = 0;
            }
            simulation.step();
            ++sinceBegin;
            Frame frame;
            frame.time = simulation.time();
            frame.steps = simulation.report().steps;
            frame.placed = simulation.report().agents;
            frame.trips = simulation.report().moverTrips;
            frame.teleported = simulation.report().teleported;
            frame.keys = simulation.report().keysPickedUp;
            const std::vector<Vec3>& at = simulation.positions();
            const std::vector<int>& poses = simulation.poses();
            frame.agents.reserve(at.size());
            for (size_t i = 0; i < at.size(); ++i) {
                const Pose& p = tree.poses[size_t(poses[i])];
                frame.agents.push_back(Aabb{at[i] + p.mins, at[i] + p.maxs});
            }
            for (size_t i = 0; i < scene.objectCount(); ++i) frame.moverOffsets.push_back(scene.objectOffset(i));
            std::lock_guard lock(mutex_);
            newest_ = std::move(frame);
            fresh_ = true;
        }
    });
    editor_.scene().setVisible(render::Layer::Agents, true);
    frameTimer_.start();
    emit playingChanged(true);
    return true;
}

void MoverPlay::stop() {
    if (!playing_) return;
    playing_ = false;
    frameTimer_.stop();
    *stop_ = true; // joined by the next start: a run still placing its agents may take a moment
    shown_ = Frame{};
    editor_.scene().set(render::Layer::Agents, render::MeshBatch{});
    editor_.scene().setVisible(render::Layer::Agents, false);
    editor_.moverStates().endPlay();
    emit editor_.sceneChanged();
    emit playingChanged(false);
}

void MoverPlay::showNewest() {
    {
        std::lock_guard lock(mutex_);
        if (!fresh_) return;
        shown_ = std::move(newest_);
        fresh_ = false;
    }
    editor_.scene().set(render::Layer::Agents, render::buildAgentBatch(shown_.agents));
    editor_.moverStates().showPlayOffsets(shown_.moverOffsets);
    emit editor_.sceneChanged();
    emit stepped();
}

} // namespace shallot
