#pragma once
// Play (issue 40): time runs, the movers move as the game runs them and agents of the
// current pose walk paths between random floors, as `shallot-cli simulate` runs them
// (objects/agent_simulation.h): the same simulation, stepped at 60 steps a second of real
// time on a background thread of lowered priority, its newest step drawn about 30 times a
// second (the agents as boxes, the movers through MoverStates, whose compiles are
// throttled). The simulation collides with the world compiled without the movers (the
// static world: MoverStates::staticWorld) and each mover's own tree, as the game does.
// Stop puts the movers back where the Movers dock puts them. The run begins at the level's
// start, the movers resting until fired as the game fires them (movers/mover_firing.h: an
// agent in a door's field, on a plat, at a button, in a trigger); or at the dock's time
// with "At time" chosen, the movers cycling on that clock. An edit while playing starts it
// again.
#include "geometry/aabb.h"

#include <QObject>
#include <QTimer>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace shallot {

class Editor;

// Agents Play starts with unless told otherwise (the Movers dock's spin box).
inline constexpr int kDefaultPlayAgents = 20;

class MoverPlay : public QObject {
    Q_OBJECT
public:
    explicit MoverPlay(Editor& editor);
    ~MoverPlay() override;

    // Starts with `agents` agents (false, with the reason in the status bar, when there is
    // no compiled world yet). Playing already: nothing.
    bool start(int agents);
    void stop();
    bool playing() const { return playing_; }

    // The newest step drawn: simulated seconds, the agents' boxes, steps taken.
    double time() const { return shown_.time; }
    const std::vector<Aabb>& agentBoxes() const { return shown_.agents; }
    int steps() const { return shown_.steps; }
    // Agents placed (a crowded level may hold fewer than asked; -1 before the first step).
    int agentsPlaced() const { return shown_.placed; }
    // The run fires the movers as the game does (it began at the level's start), and the
    // trips they began by the newest step drawn.
    bool fired() const { return fired_; }
    uint64_t moverTrips() const { return shown_.trips; }
    // Agents the level's teleporters moved by the newest step drawn.
    uint64_t teleported() const { return shown_.teleported; }
    // Key items the agents picked up by the newest step drawn (fired runs).
    uint64_t keysPickedUp() const { return shown_.keys; }

signals:
    void playingChanged(bool playing);
    void stepped(); // a newer step is drawn

private:
    struct Frame {
        double time = 0.0;
        int steps = 0;
        int placed = -1;
        uint64_t trips = 0;
        uint64_t teleported = 0;
        uint64_t keys = 0;
        std::vector<Aabb> agents;
        std::vector<Vec3> moverOffsets;
    };
    void showNewest();
    void restart(); // while playing: stopped and started again, as many agents asked

    Editor& editor_;
    bool playing_ = false;
    bool fired_ = false;
    int agents_ = 0;            // asked for by the run
    uint64_t runRevision_ = 0;  // of the world without the movers it runs in
    std::thread worker_;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::mutex mutex_;          // guards newest_ and fresh_
    Frame newest_;
    bool fresh_ = false;
    Frame shown_;
    QTimer frameTimer_;
};

} // namespace shallot
