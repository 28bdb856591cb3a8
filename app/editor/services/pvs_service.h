#pragma once
// What the eye sees, live (issue 39): while something shows it (setWanted: the Visible and
// View weight overlays), after every compile of the document's world (a drag's previews
// aside) the sight pose's PVS (core/portal/sight_pvs.h) is computed on a pool thread: the
// base flow at once (a tenth of a second on a Quake level), then the full flow: at once when
// a full-flow PVS of an earlier compile is at hand, as an update of it (exact: only the flows
// the edit can change are computed again, pvs_update.h), else once the level has stood still
// for kFullFlowDelayMs (seconds). Both are updated from the newest full flow when there is
// one. A newer compile cancels either; the 3D view culls with the newest PVS of the tree it
// shows. Nothing is computed while nothing
// shows it: its culling gains nothing measurable over the portal culling alone, and the
// base flow after each edit cost librequake_e3m4's edits 30-50 ms (docs/visibility.md).
#include "portal/sight_pvs.h"
#include "services/compile_service.h"

#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>

namespace shallot {

// How long the world stands still before the full flow starts: a designer's edits come
// closer together while working, and each would cancel it.
inline constexpr int kFullFlowDelayMs = 1500;
// A level with more one-way portals than this (detail left out) gets the base flow only: the
// full flow's time grows far faster than the portals (id_e1m1's 5,990 take 13 s;
// librequake_e3m4's 35,106 with its detail, 31 minutes; without, 4,866: docs/visibility.md).
inline constexpr size_t kFullFlowPortalLimit = 20000;

struct SightPvsResult {
    std::shared_ptr<const CompiledWorld> world; // the compiled world it is of
    uint64_t serial = 0;                      // CompiledWorld::serial
    std::shared_ptr<const SightPvs> pvs;      // null: none (error says why)
    QString error;
};

class PvsService : public QObject {
    Q_OBJECT
public:
    explicit PvsService(QObject* parent = nullptr);
    ~PvsService() override;
    // The newest compiled world: its PVS is computed next (previews are ignored), with
    // `detail` (per brush of it) left out of the clusters (SightPvsSettings::detail).
    void request(std::shared_ptr<const CompiledWorld> world, std::vector<bool> detail = {});
    // The newest result shown (of the newest world requested, or older while that one's
    // is computed).
    const SightPvsResult& latest() const { return latest_; }
    // The result when it is of `world`.
    std::shared_ptr<const SightPvs> of(const CompiledWorld& world) const;
    bool busy() const { return running_ || fullTimer_.isActive(); }
    // Whether the PVS is computed (off: nothing is, and what was stays shown until a newer one).
    void setWanted(bool wanted);
    bool wanted() const { return on_; }
    // The newest base flow had too many portals for a full flow (kFullFlowPortalLimit).
    bool fullFlowTooLarge() const { return latest_.pvs && !latest_.pvs->fullFlow() && tooLarge(*latest_.pvs); }
    static bool tooLarge(const SightPvs& pvs) { return pvs.stats().oneWayPortals > kFullFlowPortalLimit; }

signals:
    void updated();

private:
    void start(bool fullFlow);
    void finished(SightPvsResult result, bool fullFlow);

    std::shared_ptr<const CompiledWorld> wanted_; // the newest world requested
    std::vector<bool> wantedDetail_;
    bool wantedFull_ = false;                     // its full flow is due (after the timer)
    bool on_ = false;
    bool running_ = false;
    std::shared_ptr<CancelToken> cancel_;         // of the running computation
    QTimer fullTimer_;
    SightPvsResult latest_;
    std::shared_ptr<const SightPvs> lastFull_; // the newest full flow shown, of whichever world: what updates start from
};

} // namespace shallot
