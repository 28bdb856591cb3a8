// shallot: the level editor. `shallot [FILE]` opens a .shallot, .map or mesh (a sample
// from maps/ when none is given); `shallot --screenshot OUT.png [--size WxH] [FILE]`
// renders the window once the views are ready, saves it and exits. For tests:
// `--autosave-ms N` autosaves every N ms instead of every 3 minutes, `--play SCRIPT` plays
// an edit script (edit_script.h) into the opened document.
#include "document/edit_script.h"
#include "document/save_location.h"
#include "frame_benchmark.h"
#include "main_window.h"
#include "screenshot.h"
#include "document/script_player.h"
#include "views/view_surface.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <iostream>

namespace {

// The sample opened when no file is given (installedMapsDir).
QString defaultSample() {
    const QString maps = shallot::installedMapsDir();
    const QString path = maps + "/figure1_rooms.map";
    return !maps.isEmpty() && QFileInfo::exists(path) ? path : QString();
}

} // namespace

int main(int argc, char** argv) {
    shallot::ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Shallot");
    QApplication::setApplicationName("Shallot");

    QCommandLineParser parser;
    parser.setApplicationDescription("Shallot level editor: live onion BSP collision spaces.");
    parser.addHelpOption();
    parser.addPositionalArgument("file", "A .shallot document, a Quake .map or a mesh to open.");
    QCommandLineOption screenshot("screenshot", "Render the window to <png> once ready and exit.", "png");
    QCommandLineOption size("size", "Window size for --screenshot, e.g. 1280x800.", "WxH", "1280x800");
    QCommandLineOption pose("pose", "Pose to show the overlays for: NAME, or NAME=capsule:R,HEIGHT or NAME=ellipsoid:R,H "
                                    "to make it round (added when there is none of that name).", "name");
    QCommandLineOption overlays("overlays", "Overlays to show, exactly, comma separated (cells,portals,union,reach,rays,walkable,visible,weight,dark,q3capsule).", "list");
    QCommandLineOption shading("shading", "3D view shading for --screenshot: flat, lit or lightmap.", "mode");
    QCommandLineOption benchFrames("bench-frames", "Open the file, time opening, the first compile, edits and <n> frames of the 3D view with all overlays (or those of --overlays), print JSON, exit.", "n");
    QCommandLineOption autosave("autosave-ms", "Autosave unsaved work every <n> ms (default: 3 minutes).", "n");
    QCommandLineOption play("play", "Play the edit script <jsonl> into the opened document (tests).", "jsonl");
    QCommandLineOption playInterval("play-interval-ms", "Milliseconds between the operations of --play.", "n", "10");
    QCommandLineOption camera("camera", "3D view's camera for --screenshot: X,Y,Z,YAW,PITCH (degrees).", "camera");
    parser.addOptions({screenshot, size, pose, overlays, shading, camera, benchFrames, autosave, play, playInterval});
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    const QString file = files.isEmpty() ? defaultSample() : files.first();
    const bool screenshotMode = parser.isSet(screenshot) || parser.isSet(benchFrames);

    shallot::MainWindow window(!screenshotMode);
    if (parser.isSet(benchFrames))
        return shallot::runFrameBenchmark(app, window, file, parser.value(benchFrames).toInt(),
                                          parser.value(overlays).split(',', Qt::SkipEmptyParts));
    if (screenshotMode) {
        shallot::ScreenshotRequest request;
        request.output = parser.value(screenshot);
        const QStringList wh = parser.value(size).split('x');
        if (wh.size() == 2) request.size = QSize(wh[0].toInt(), wh[1].toInt());
        request.pose = parser.value(pose);
        request.overlays = parser.value(overlays).split(',', Qt::SkipEmptyParts);
        request.shading = parser.value(shading);
        if (parser.isSet(camera)) {
            request.camera = shallot::parseCamera(parser.value(camera));
            if (!request.camera) {
                std::cerr << "shallot: --camera wants X,Y,Z,YAW,PITCH\n";
                return 1;
            }
        }
        return shallot::runScreenshot(app, window, file, request);
    }
    if (parser.isSet(autosave)) window.setAutosaveIntervalMs(parser.value(autosave).toInt());
    window.resize(1400, 900);
    window.show();
    if (!file.isEmpty()) window.openFile(file);
    if (parser.isSet(play)) {
        QString error;
        std::vector<QJsonObject> ops = shallot::readEditScript(parser.value(play), error);
        if (!error.isEmpty()) {
            std::cerr << qPrintable(error) << "\n";
            return 2;
        }
        auto* player = new shallot::ScriptPlayer(window, std::move(ops), parser.value(playInterval).toInt(), &window);
        QObject::connect(player, &shallot::ScriptPlayer::finished, [](const QString& message) {
            std::cerr << (message.isEmpty() ? "script played" : qPrintable("script stopped: " + message)) << "\n";
        });
        player->start();
    }
    return app.exec();
}
