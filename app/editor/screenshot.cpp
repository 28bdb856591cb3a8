#include "screenshot.h"

#include "services/light_service.h"
#include "services/mover_states.h"
#include "services/quake3_capsule_overlay.h"
#include "services/spawn_check_service.h"
#include "services/too_dark_overlay.h"
#include "main_window.h"
#include "services/overlay_controller.h"
#include "overlay_names.h"
#include "views/viewport_2d.h"
#include "views/viewport_3d.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPainter>
#include <QTimer>
#include <cmath>
#include <iostream>

namespace shallot {

namespace {
// Give up waiting for the views after this long (a broken GL setup must not hang CI; the
// full flow of a Quake level's PVS takes a good part of it on a busy 2-core machine).
constexpr int kReadyTimeoutMs = 90000;

// QWidget::grab does not see the views' native windows (view_surface.h): each view draws
// its frame into the shot at its place.
QPixmap grabWithViews(QWidget& window) {
    QPixmap shot = window.grab();
    QPainter painter(&shot);
    for (Viewport* view : window.findChildren<Viewport*>())
        if (view->isVisible()) painter.drawImage(QRect(view->mapTo(&window, QPoint(0, 0)), view->size()), view->grabFramebuffer());
    return shot;
}
} // namespace

std::optional<CameraState> parseCamera(const QString& text) {
    const QStringList parts = text.split(',');
    if (parts.size() != 5) return std::nullopt;
    double v[5];
    for (int i = 0; i < 5; ++i) {
        bool ok = false;
        v[i] = parts[i].trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(v[i])) return std::nullopt;
    }
    return CameraState{Vec3(v[0], v[1], v[2]), v[3], v[4]};
}

int runScreenshot(QApplication& app, MainWindow& window, const QString& file, const ScreenshotRequest& request) {
    window.resize(request.size);
    window.show();
    if (!file.isEmpty() && !window.openFile(file)) return 1;
    if (request.camera) {
        app.processEvents(); // the opened file's framing first (MainWindow::openFile defers it)
        window.editor().document().setCamera(*request.camera);
    }
    if (!request.pose.isEmpty()) {
        // NAME, or NAME=capsule:R,HEIGHT / NAME=ellipsoid:R,H: that pose made round (added
        // when the document has none of that name), then shown.
        const QString name = request.pose.section('=', 0, 0);
        if (request.pose.contains('=')) {
            const PoseShapeParse shape = parsePoseShape(request.pose.section('=', 1).toStdString());
            if (!shape.shape) {
                std::cerr << "shallot: --pose " << qPrintable(request.pose) << ": " << shape.error << "\n";
                return 1;
            }
            std::vector<Pose> poses = window.editor().document().poses();
            auto it = std::find_if(poses.begin(), poses.end(), [&](const Pose& p) { return p.name == name.toStdString(); });
            Pose round = Pose::round(name.toStdString(), *shape.shape);
            if (it != poses.end()) {
                round.colour = it->colour;
                round.blocking = it->blocking;
                round.nav = it->nav;
                *it = round;
            } else if (poses.size() < size_t(kMaxPoses)) {
                poses.push_back(round);
            }
            window.editor().document().setPoses(std::move(poses));
        }
        const auto& poses = window.editor().document().poses();
        const auto it = std::find_if(poses.begin(), poses.end(), [&](const Pose& p) { return p.name == name.toStdString(); });
        if (it == poses.end()) {
            std::cerr << "shallot: no pose named '" << qPrintable(name) << "'\n";
            return 1;
        }
        window.editor().setCurrentPose(int(it - poses.begin()));
    }
    OverlayController& overlays = window.editor().overlays();
    // --overlays names exactly the overlays shown (the document's saved view aside).
    QStringList shown;
    for (const QString& o : request.overlays) {
        const std::optional<QString> action = overlayActionName(o);
        if (!action) {
            std::cerr << "shallot: unknown overlay '" << qPrintable(o) << "' (" << kOverlayNames << ")\n";
            return 1;
        }
        shown << *action;
    }
    if (!request.overlays.isEmpty())
        for (const QString& action : overlayActionNames()) window.action(action)->setChecked(shown.contains(action));
    if (request.overlays.contains("reach") && !overlays.reachStart()) {
        if (const std::optional<Vec3> start = playerStart(window.editor().document().data())) overlays.setReachStart(*start);
    }
    const std::pair<const char*, const char*> shadings[] = {{"flat", "shadingFlat"}, {"lit", "shadingLit"}, {"lightmap", "shadingLightmap"}};
    if (!request.shading.isEmpty()) {
        const auto it = std::find_if(std::begin(shadings), std::end(shadings), [&](const auto& s) { return request.shading == s.first; });
        if (it == std::end(shadings)) {
            std::cerr << "shallot: unknown shading '" << qPrintable(request.shading) << "' (flat, lit, lightmap)\n";
            return 1;
        }
        window.action(it->second)->trigger();
    }
    const LightService& lighting = window.editor().lighting();
    QElapsedTimer waited;
    waited.start();
    // Ready when each view has painted, the overlays show the newest compile and the spawn
    // checks have run on it (their problems are drawn red).
    const EditorDocument& doc = window.editor().document();
    const SpawnCheckService& checks = window.editor().spawnChecks();
    while (waited.elapsed() < kReadyTimeoutMs) {
        app.processEvents(QEventLoop::AllEvents, 50);
        bool ready = window.view3d()->framesPainted() >= 2 && !window.editor().compiler().busy() &&
                     overlays.shownRevision() == doc.worldRevision() && !checks.busy() &&
                     checks.checkedWorldRevision() == doc.worldRevision();
        for (int i = 0; i < 3; ++i) ready = ready && window.view2d(i)->framesPainted() >= 2;
        // The Visible and View weight overlays: of the full flow's PVS of the newest compile.
        const VisibilityOverlays& visibility = overlays.visibility();
        if (ready && (visibility.visibleOn() || visibility.weightOn())) {
            const auto& compiled = overlays.compiled();
            const SightPvsResult& pvs = overlays.pvs().latest();
            ready = !overlays.pvs().busy() && (!pvs.pvs || (compiled && visibility.shownSerial() == compiled->serial &&
                                                            overlays.sections().shown().visible == visibility.visibleLeaves(compiled->serial)));
        }
        // Lit shadings: the lighting of the newest compile drawn.
        if (ready && lighting.shading() != render::LightShading::Flat)
            ready = !lighting.busy() && (!lighting.latest().error.isEmpty() ||
                                         (lighting.latest().lighting && lighting.latest().world == window.editor().moverStates().staticWorld()));
        if (ready && window.editor().tooDark().isOn()) ready = window.editor().tooDark().current();
        // A round pose: its own cells and rounded expanded world drawn, and cut in the 2D views.
        if (ready && overlays.compiled() && overlays.compiled()->isRound(window.editor().currentPose())) {
            const bool cells = overlays.isOn(Overlay::Cells), surface = overlays.isOn(Overlay::Union);
            ready = (!cells || overlays.roundCells()) && (!surface || overlays.roundSurface());
            if (ready && overlays.sections().isOn())
                ready = (!cells || overlays.sections().shown().roundCells == overlays.roundCells()) &&
                        (!surface || overlays.sections().shown().roundSurface == overlays.roundSurface());
        }
        if (ready && window.editor().quake3Capsule().isOn())
            ready = !window.editor().quake3Capsule().busy() && window.editor().quake3Capsule().drawnRevision() == doc.worldRevision();
        if (ready && waited.elapsed() > 300) {
            app.processEvents(QEventLoop::AllEvents, 100); // let the views repaint with the overlays
            break;
        }
    }
    const QPixmap shot = grabWithViews(window);
    if (!shot.save(request.output)) {
        std::cerr << "shallot: cannot write " << qPrintable(request.output) << "\n";
        return 1;
    }
    return 0;
}

} // namespace shallot
