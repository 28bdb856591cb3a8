#pragma once
// `shallot --bench-frames N FILE`: opens FILE, reports how long opening took, how long
// until the first compile was shown, then orbits the 3D camera for N frames with every
// overlay of the current pose on and reports frame times (one JSON line on stdout).
// `overlayNames` (--overlays) chooses the overlays, else SHALLOT_BENCH_OVERLAYS, else all are
// on: names as overlay_names.h knows them, comma separated; an unknown one is an error.
// SHALLOT_BENCH_SCREENSHOT=FILE.png saves the last frame, to see what was measured.
// The camera turns at the map's info_player_start, or with SHALLOT_BENCH_CAMERA=open where
// the editor opened the map (usually outside the level, seeing all of it).
#include <QString>
#include <QStringList>

class QApplication;

namespace shallot {

class MainWindow;

int runFrameBenchmark(QApplication& app, MainWindow& window, const QString& file, int frames,
                      QStringList overlayNames = {});

} // namespace shallot
