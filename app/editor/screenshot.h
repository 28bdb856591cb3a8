#pragma once
// `shallot --screenshot`: open a file, wait until every view has painted (and the
// compile the overlays need has finished), save the window as a PNG and quit.
#include "model/document_data.h"

#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

class QApplication;

namespace shallot {

class MainWindow;

struct ScreenshotRequest {
    QString output;
    QSize size{1280, 800};
    QString pose;
    QStringList overlays;
    QString shading; // "flat", "lit" or "lightmap" (empty: flat)
    std::optional<CameraState> camera; // the 3D view's, instead of the document's
};

// "X,Y,Z,YAW,PITCH" (degrees) as a camera; nothing for anything else.
std::optional<CameraState> parseCamera(const QString& text);


// Returns the process exit code: 0 saved, 1 the file could not be opened or saved.
int runScreenshot(QApplication& app, MainWindow& window, const QString& file, const ScreenshotRequest& request);

} // namespace shallot
