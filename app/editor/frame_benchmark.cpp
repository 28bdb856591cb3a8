#include "frame_benchmark.h"

#include "edit/brush_operations.h"
#include "document/edit_commands.h"
#include "services/spawn_check_service.h"
#include "main_window.h"
#include "services/overlay_controller.h"
#include "overlay_names.h"
#include "screenshot.h"
#include "views/viewport_2d.h"
#include "views/viewport_3d.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QDockWidget>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sys/resource.h>

namespace shallot {

namespace {
constexpr int kTimeoutMs = 120000;
constexpr int kPanFrames2d = 9;  // frames of the 2D pan and selection measures
constexpr double kPanPixels2d = 8.0; // the pan of each frame, as a drag with the pan button
constexpr int kDrawnEdits = 5;   // edits timed until every view shows them
constexpr int kDragSteps = 30;   // steps of the timed drag, one a frame at 60 Hz
constexpr int kDragStepMs = 16;
// CPU time of the whole process (every thread, so llvmpipe's rasterisers too), in ms. On a
// shared machine a frame's wall time varies by a quarter from run to run; the CPU time it
// costs varies much less and says what the rendering itself costs.
double processCpuMs() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto ms = [](const timeval& t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3; };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}
} // namespace

int runFrameBenchmark(QApplication& app, MainWindow& window, const QString& file, int frames, QStringList overlayNames) {
    if (overlayNames.isEmpty() && qEnvironmentVariableIsSet("SHALLOT_BENCH_OVERLAYS"))
        overlayNames = qEnvironmentVariable("SHALLOT_BENCH_OVERLAYS").split(",", Qt::SkipEmptyParts);
    if (overlayNames.isEmpty()) overlayNames = {"cells", "portals", "union", "reach", "rays"};
    QStringList actions;
    for (const QString& name : overlayNames) {
        const std::optional<QString> action = overlayActionName(name);
        if (!action) {
            std::fprintf(stderr, "shallot: unknown overlay '%s' (%s)\n", qPrintable(name), kOverlayNames);
            return 1;
        }
        actions.push_back(*action);
    }
    window.resize(1280, 800);
    window.show();
    QElapsedTimer clock;
    clock.start();
    if (!window.openFile(file)) return 1;
    app.processEvents();
    const double openMs = double(clock.nsecsElapsed()) / 1e6;
    EditorDocument& doc = window.editor().document();
    OverlayController& overlays = window.editor().overlays();
    for (const QString& action : overlayActionNames()) window.action(action)->setChecked(actions.contains(action)); // exactly those
    if (const std::optional<Vec3> start = playerStart(doc.data())) overlays.setReachStart(*start);
    // The UI thread's responsiveness while the first compile runs: the longest gap between
    // two ticks of a 5 ms timer.
    double maxGapMs = 0.0;
    QElapsedTimer gap;
    gap.start();
    QTimer ticker;
    ticker.setInterval(5);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        maxGapMs = std::max(maxGapMs, double(gap.nsecsElapsed()) / 1e6);
        gap.restart();
    });
    ticker.start();
    // Sleeps between events (a busy wait would take a core from the compile it waits for);
    // the heartbeat wakes it to check the timeout.
    QTimer heartbeat;
    heartbeat.start(10);
    auto waitForOverlay = [&] {
        while (clock.elapsed() < kTimeoutMs && (window.editor().compiler().busy() || overlays.shownRevision() != doc.worldRevision()))
            app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    };
    waitForOverlay();
    ticker.stop();
    const double firstCompileMs = double(clock.nsecsElapsed()) / 1e6;

    const double maxGapFirstCompileMs = maxGapMs;

    // Edit latency: move one brush by a grid step, time until the overlay shows the result.
    // The ticker measures the UI's longest pause over the edits and a second after them
    // (when the previous tree is let go of).
    maxGapMs = 0.0;
    gap.restart();
    ticker.start();
    // The i-th edit: the middle brush moved a grid step, back and forth.
    auto moveBrush = [&](int i) {
        const int brush = int(doc.brushes().size() / 2);
        doc.undoStack()->push(replaceInPlace(&doc, "bench move", {brush}, {translated(doc.brushes()[size_t(brush)], Vec3(i % 2 ? -16 : 16, 0, 0))}));
    };
    std::vector<double> editMs, spawnCheckMs, walkingCheckMs, editToSpawnProblemsMs, sectionMs, walkableMs;
    // The walkable surfaces and links of every pose, rebuilt after each edit (with the
    // Walkable overlay on, or test rays in the document).
    const NavService& nav = window.editor().overlays().nav();
    const QMetaObject::Connection walkableTimes =
        QObject::connect(&nav, &NavService::built, &window, [&] { walkableMs.push_back(nav.meshes()->milliseconds); });
    const SpawnCheckService& checks = window.editor().spawnChecks();
    const SectionService& sections = window.editor().overlays().sections();
    const QMetaObject::Connection sectionTimes =
        QObject::connect(&sections, &SectionService::sectionsShown, &window, [&] { sectionMs.push_back(sections.lastBuildMs()); });
    for (int i = 0; i < 9 && !doc.brushes().empty(); ++i) {
        QElapsedTimer edit;
        edit.start();
        moveBrush(i);
        waitForOverlay();
        editMs.push_back(double(edit.nsecsElapsed()) / 1e6);
        // The spawn checks run on the compile just shown; the Problems dock has them when done.
        // (Sleeping between events: the checks run at the lowest priority, and a busy wait
        // here took the core they waited for.)
        while (clock.elapsed() < kTimeoutMs && (checks.busy() || checks.checkedWorldRevision() != doc.worldRevision()))
            app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        spawnCheckMs.push_back(checks.milliseconds());
        walkingCheckMs.push_back(checks.walkingMilliseconds());
        editToSpawnProblemsMs.push_back(double(edit.nsecsElapsed()) / 1e6);
    }

    QElapsedTimer afterEdits;
    afterEdits.start();
    while (afterEdits.elapsed() < 1000) app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    QObject::disconnect(sectionTimes);
    QObject::disconnect(walkableTimes);
    ticker.stop();
    const double maxGapEditsMs = maxGapMs;

    // A drag: the middle brush dragged back and forth a grid step a frame, previewed
    // (Editor::previewBrushes) as the select tool does, then dropped where it started. How
    // many of its steps the overlay showed while it lasted, how long after each step, and
    // how long after the last; and how often the 2D sections (which the 2D views show
    // instead of the tree's overlays) were shown meanwhile.
    std::vector<double> dragStepMs;
    double dragEndMs = 0.0;
    qint64 dragSectionsShown = 0;
    if (!doc.brushes().empty()) {
        const int brush = int(doc.brushes().size() / 2);
        const Brush original = doc.brushes()[size_t(brush)];
        QMetaObject::Connection shown = QObject::connect(&overlays, &OverlayController::overlaysUpdated, [&](quint64 revision) {
            if (isPreviewRevision(revision)) dragStepMs.push_back(window.editor().msSinceEdit(revision));
        });
        QMetaObject::Connection sectionsShown =
            QObject::connect(&sections, &SectionService::sectionsShown, [&] { ++dragSectionsShown; });
        QElapsedTimer step;
        for (int i = 1; i <= kDragSteps; ++i) {
            const int phase = i % 16; // 0, 16, .. 64, .. 0, .. -64, .. 0 units
            const int offset = phase <= 4 ? phase : phase <= 12 ? 8 - phase : phase - 16;
            step.start();
            window.editor().previewBrushes({brush}, {translated(original, Vec3(16.0 * offset, 0, 0))});
            while (step.elapsed() < kDragStepMs) app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 1);
        }
        QElapsedTimer end;
        end.start();
        const uint64_t last = window.editor().compiler().newestRevision();
        while (clock.elapsed() < kTimeoutMs && overlays.shownRevision() != last)
            app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        dragEndMs = double(end.nsecsElapsed()) / 1e6;
        QObject::disconnect(shown);
        QObject::disconnect(sectionsShown);
        window.editor().endPreview();
        waitForOverlay();
    }

    // Edit -> overlay again, until every view shows the new overlays (uploaded, and drawn
    // into the 2D pictures), each edit after the last is shown.
    auto drawn = [&] {
        for (Viewport* v : window.findChildren<Viewport*>())
            if (v->isVisible() && !v->showsScene()) return false;
        return true;
    };
    // kDrawnEdits edits, each timed until `shown()` holds after its overlay is ready.
    auto timeEdits = [&](auto shown) {
        std::vector<double> ms;
        for (int i = 0; i < kDrawnEdits && !doc.brushes().empty(); ++i) {
            QElapsedTimer edit;
            edit.start();
            moveBrush(i);
            waitForOverlay();
            while (clock.elapsed() < kTimeoutMs && !shown()) app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
            ms.push_back(double(edit.nsecsElapsed()) / 1e6);
        }
        return ms;
    };
    const std::vector<double> editDrawnMs = timeEdits(drawn);

    // With the walkable meshes wanted (the Walkable overlay): edit -> the edited world's
    // meshes and travel drawn in every view. They follow the tree's overlays (the travel
    // waits for the world without the movers, compiled at the lowest priority), so
    // "edit to overlay drawn" above may be measured before they come.
    std::vector<double> editWalkableMs;
    if (overlays.isOn(Overlay::Walkable))
        editWalkableMs = timeEdits([&] { return overlays.compiled() && nav.upToDate(overlays.compiled()) && !nav.busy() && drawn(); });

    // The top view, showing the whole map, panned a little each frame as a drag does: each
    // frame moves the view's picture and draws the strip it uncovers (Viewport::movePicture).
    std::vector<double> frames2dMs, selection2dMs, zoom2dMs, zoomSharp2dMs;
    if (Viewport2D* top = window.view2d(0)) {
        // Paints the view once and gives the time that frame took.
        auto timedPaint = [&] {
            const quint64 before = top->framesPainted();
            top->redraw();
            while (top->framesPainted() == before) app.processEvents(QEventLoop::AllEvents, 1);
            return top->lastFrameMs();
        };
        const Aabb box = window.editor().levelBounds();
        if (!box.empty()) {
            top->frame(box);
            timedPaint(); // the view as the pan starts from it, its picture drawn
        }
        for (int i = 0; i < kPanFrames2d && !box.empty(); ++i) {
            top->pan(QPointF(kPanPixels2d, 0.0));
            frames2dMs.push_back(timedPaint());
        }
        // Then a brush selected, one after another, with the view standing still.
        QElapsedTimer settle2d;
        settle2d.start();
        while (settle2d.elapsed() < 500) app.processEvents(QEventLoop::AllEvents, 10);
        for (int i = 0; i < kPanFrames2d && i < int(doc.brushes().size()); ++i) {
            doc.setSelection({i});
            selection2dMs.push_back(timedPaint());
        }
        // Then zoomed in and out at the centre, a wheel notch a frame: each frame shows the
        // old picture stretched, and the new one is drawn in parts until the view is sharp.
        for (int i = 0; i < kPanFrames2d && !box.empty(); ++i) {
            QElapsedTimer zoom;
            zoom.start();
            top->zoomAt(i % 2 ? 1.0 / 1.2 : 1.2, QPointF(top->width() / 2.0, top->height() / 2.0));
            zoom2dMs.push_back(timedPaint());
            while (clock.elapsed() < kTimeoutMs && !top->showsScene()) app.processEvents(QEventLoop::AllEvents, 1);
            zoomSharp2dMs.push_back(double(zoom.nsecsElapsed()) / 1e6);
        }
    }

    // The 3D view alone at 1280 x 800.
    Viewport3D* view = window.view3d();
    window.setSingleView(true);
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) dock->hide();
    app.processEvents();
    window.resize(window.size() + QSize(1280, 800) - view->size());
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 500) app.processEvents(QEventLoop::AllEvents, 10);
    // Look from the player start when the map has one, as a designer standing in it, unless
    // asked to stay where the editor opened the map (SHALLOT_BENCH_CAMERA=open).
    const bool stayAtOpening = qEnvironmentVariable("SHALLOT_BENCH_CAMERA") == "open";
    if (const std::optional<Vec3> start = playerStart(doc.data()); start && !stayAtOpening) {
        CameraState c = doc.data().camera;
        c.position = *start + Vec3(0, 0, 22);
        c.pitchDegrees = -10;
        doc.setCamera(c);
    }
    // The 3D view culls with the PVS of the tree shown when one is computed (the Visible or
    // View weight overlay is on; SHALLOT_BENCH_PVS_CULLING=off: with the portal culling
    // alone); its base flow is waited for.
    const bool pvsCulling = qEnvironmentVariable("SHALLOT_BENCH_PVS_CULLING") != "off";
    overlays.setPvsCulling(pvsCulling);
    while (clock.elapsed() < kTimeoutMs && overlays.pvs().wanted() && overlays.compiled() &&
           !overlays.pvs().of(*overlays.compiled()) && overlays.pvs().latest().error.isEmpty())
        app.processEvents(QEventLoop::AllEvents, 10);
    const std::shared_ptr<const SightPvs> framePvs = overlays.compiled() ? overlays.pvs().of(*overlays.compiled()) : nullptr;
    std::vector<double> paintMs, frameMs;
    QElapsedTimer frameClock;
    const double cpuBefore = processCpuMs();
    for (int i = 0; i < frames && clock.elapsed() < kTimeoutMs; ++i) {
        CameraState c = doc.data().camera;
        c.yawDegrees += 1.0; // a slow orbit: every frame differs
        doc.setCamera(c);
        const quint64 before = view->framesPainted();
        frameClock.start();
        view->redraw();
        while (view->framesPainted() == before) app.processEvents(QEventLoop::AllEvents, 1);
        frameMs.push_back(double(frameClock.nsecsElapsed()) / 1e6);
        paintMs.push_back(view->lastFrameMs());
    }
    const double cpuPerFrameMs = frameMs.empty() ? 0.0 : (processCpuMs() - cpuBefore) / double(frameMs.size());
    if (qEnvironmentVariableIsSet("SHALLOT_BENCH_SCREENSHOT")) view->grabFramebuffer().save(qEnvironmentVariable("SHALLOT_BENCH_SCREENSHOT"));
    const auto& compiled = overlays.compiled();
    const QJsonObject out{{"file", file},
                          {"brushes", qint64(doc.brushes().size())},
                          {"open_ms", openMs},
                          {"first_overlay_ms", firstCompileMs},
                          {"compile_ms", compiled ? compiled->milliseconds : 0.0},
                          {"max_ui_gap_during_compile_ms", maxGapFirstCompileMs},
                          {"max_ui_gap_during_edits_ms", maxGapEditsMs},
                          {"median_edit_to_overlay_ms", median(editMs)},
                          {"median_edit_to_overlay_drawn_ms", median(editDrawnMs)},
                          {"median_edit_to_walkable_drawn_ms", median(editWalkableMs)},
                          {"median_spawn_check_ms", median(spawnCheckMs)},
                          {"median_walking_check_ms", median(walkingCheckMs)},
                          {"median_2d_sections_ms", median(sectionMs)},
                          {"median_walkable_rebuild_ms", median(walkableMs)},
                          {"median_edit_to_spawn_problems_ms", median(editToSpawnProblemsMs)},
                          {"overlay_rebuilds_in_part", qint64(overlays.rebuiltInPart())},
                          {"drag_steps", kDragSteps},
                          {"drag_overlays_shown", qint64(dragStepMs.size())},
                          {"drag_sections_shown", dragSectionsShown},
                          {"median_drag_step_to_overlay_ms", median(dragStepMs)},
                          {"drag_last_step_to_overlay_ms", dragEndMs},
                          {"frames", int(frameMs.size())},
                          {"median_paint_ms", median(paintMs)},
                          {"median_2d_pan_frame_ms", median(frames2dMs)},
                          {"median_2d_selection_frame_ms", median(selection2dMs)},
                          {"median_2d_zoom_frame_ms", median(zoom2dMs)},
                          {"median_2d_zoom_sharp_ms", median(zoomSharp2dMs)},
                          {"median_frame_ms", median(frameMs)},
                          {"cpu_ms_per_frame", cpuPerFrameMs},
                          {"fps", frameMs.empty() ? 0.0 : 1000.0 / median(frameMs)},
                          {"pvs_culling", pvsCulling && framePvs ? (framePvs->fullFlow() ? "full" : framePvs->provisional() ? "provisional" : "base") : "off"},
                          {"size", QString("%1x%2").arg(view->width()).arg(view->height())}};
    std::cout << QJsonDocument(out).toJson(QJsonDocument::Compact).constData() << std::endl;
    return 0;
}

} // namespace shallot
