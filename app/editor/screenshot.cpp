#include "screenshot.h"

#include "main_window.h"
#include "viewport_2d.h"
#include "viewport_3d.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <iostream>

namespace shallot {

namespace {
// Give up waiting for the views after this long (a broken GL setup must not hang CI).
constexpr int kReadyTimeoutMs = 30000;
} // namespace

int runScreenshot(QApplication& app, MainWindow& window, const QString& file, const ScreenshotRequest& request) {
    window.resize(request.size);
    window.show();
    if (!file.isEmpty() && !window.openFile(file)) return 1;
    if (!request.pose.isEmpty()) {
        const auto& poses = window.editor().document().poses();
        const auto it = std::find_if(poses.begin(), poses.end(), [&](const Pose& p) { return p.name == request.pose.toStdString(); });
        if (it == poses.end()) {
            std::cerr << "shallot: no pose named '" << qPrintable(request.pose) << "'\n";
            return 1;
        }
        window.editor().setCurrentPose(int(it - poses.begin()));
    }
    QElapsedTimer waited;
    waited.start();
    // Ready when each view painted after the document was framed.
    while (waited.elapsed() < kReadyTimeoutMs) {
        app.processEvents(QEventLoop::AllEvents, 50);
        bool ready = window.view3d()->framesPainted() >= 2;
        for (int i = 0; i < 3; ++i) ready = ready && window.view2d(i)->framesPainted() >= 2;
        if (ready && waited.elapsed() > 300) break;
    }
    const QPixmap shot = window.grab();
    if (!shot.save(request.output)) {
        std::cerr << "shallot: cannot write " << qPrintable(request.output) << "\n";
        return 1;
    }
    return 0;
}

} // namespace shallot
