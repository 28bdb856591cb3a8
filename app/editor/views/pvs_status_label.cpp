#include "views/pvs_status_label.h"

#include "editor.h"
#include "services/overlay_controller.h"

#include <QTime>

namespace shallot {

namespace {

// 2130 -> "2.1k": the status bar has little room.
QString shortCount(double n) { return n < 1000 ? QString::number(n, 'f', 0) : QString("%1k").arg(n / 1000, 0, 'f', 1); }

QString duration(double ms) { return ms < 1000 ? QString("%1 ms").arg(ms, 0, 'f', 0) : QString("%1 s").arg(ms / 1000, 0, 'f', 1); }

} // namespace

PvsStatusLabel::PvsStatusLabel(Editor& editor, QWidget* parent) : QLabel(parent), editor_(editor) {
    setObjectName("pvsStatus");
    connect(&editor_.overlays().pvs(), &PvsService::updated, this, &PvsStatusLabel::update);
    connect(&editor_.overlays().visibility(), &VisibilityOverlays::shown, this, &PvsStatusLabel::update);
    update();
}

void PvsStatusLabel::update() {
    const SightPvsResult& r = editor_.overlays().pvs().latest();
    if (!editor_.overlays().pvs().wanted()) { // computed only while the Visible or View weight overlay is on
        setText({});
        setToolTip({});
        return;
    }
    if (!r.pvs) {
        setText(r.error.isEmpty() ? QString() : "No PVS");
        setToolTip(r.error.isEmpty() ? QString() : "No potentially visible set: " + r.error);
        return;
    }
    const SightPvs::Figures& f = r.pvs->figures();
    if (f.leaves == 0) { // every empty leaf in the void's reach: Quake's vis refuses such a level
        setText("PVS: none inside (leaks?)");
        setToolTip("No leaf where an eye can be is out of the void's reach: the level leaks (or has no inside), so "
                   "every place may see every other. Reachability (Alt+4) from the player start shows the leak path.");
        return;
    }
    const PvsService& service = editor_.overlays().pvs();
    const PvsUpdateStats& u = r.pvs->updateStats();
    const QString flow = r.pvs->fullFlow()      ? QString("full flow")
                         : r.pvs->provisional() ? QString("provisional: the full flow before the edit for the %1 of %2 "
                                                          "portals whose sight lines the edit left alone, the base flow "
                                                          "for the rest; the full flow follows")
                                                      .arg(u.fullFlowsKept)
                                                      .arg(u.portals)
                         : service.fullFlowTooLarge() ? QString("base flow only: %1 one-way portals are too many for the full "
                                                                 "flow here (more than %2)")
                                                             .arg(r.pvs->stats().oneWayPortals)
                                                             .arg(kFullFlowPortalLimit)
                                                       : QString("base flow; the full flow follows (at once as an update of the "
                                                                 "one before the edit, else once the level stands still)");
    setText(QString("PVS %1 (%2) leaves, %3 (%4) faces%5 · %6")
                .arg(shortCount(f.averageLeaves), shortCount(double(f.largestLeaves)), shortCount(f.averageWeight),
                     shortCount(double(f.largestWeight)),
                     r.pvs->fullFlow() ? "" : r.pvs->provisional() ? " (updating)" : " (base)", duration(r.pvs->milliseconds())));
    QString tip = QString("Potentially visible set of the sight pose (%1), updated at %2 in %3: over the %4 leaves where an eye "
                          "can be, each sees %5 leaves on average and at most %6; the brush faces near what they see (view "
                          "weight) average %7, at most %8 (limit %9, View > View Weight Limit...).")
                      .arg(flow, QTime::currentTime().toString("HH:mm:ss"), duration(r.pvs->milliseconds()))
                      .arg(f.leaves)
                      .arg(f.averageLeaves, 0, 'f', 1)
                      .arg(f.largestLeaves)
                      .arg(f.averageWeight, 0, 'f', 0)
                      .arg(f.largestWeight)
                      .arg(editor_.document().data().viewWeightLimit);
    const VisibilityOverlays& v = editor_.overlays().visibility();
    if (v.visibleOn() && v.sourceLeaf() >= 0)
        tip += QString(" The Visible overlay's point (leaf %1) sees %2 of the tree's leaves.").arg(v.sourceLeaf()).arg(v.visibleLeafCount());
    if (r.pvs->updated() && r.pvs->fullFlow()) {
        tip += QString(" Updated from the PVS before the edit: %1 of %2 portals' flows kept, the same sets as a full "
                       "computation.")
                   .arg(u.fullFlowsKept)
                   .arg(u.portals);
    }
    if (r.pvs->detailClustered()) tip += " Detail brushes (func_detail) are left out of the clusters, as Quake 2's vis does: they hide nothing.";
    setToolTip(tip);
}

} // namespace shallot
