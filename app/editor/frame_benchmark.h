#pragma once
// `shallot --bench-frames N FILE`: opens FILE, reports how long opening took, how long
// until the first compile was shown, then orbits the 3D camera for N frames with every
// overlay of the current pose on and reports frame times (one JSON line on stdout).
#include <QString>

class QApplication;

namespace shallot {

class MainWindow;

int runFrameBenchmark(QApplication& app, MainWindow& window, const QString& file, int frames);

} // namespace shallot
