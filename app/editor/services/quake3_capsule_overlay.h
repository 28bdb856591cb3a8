#pragma once
// The Quake 3 capsule overlay (issue 42, item 5): while the current pose is a capsule (or
// an ellipsoid), the places where Quake 3's way of colliding it (brush planes moved out by
// its reach, core/query/shifted_plane_shape.h) refuses it though it fits exactly, sampled
// over the level after each compile (core/query/shifted_plane_comparison.h), each marked by
// a small cross: where the agent would stand (resting places, at its feet) or be (beside a
// wall, at its centre). Built on a pool thread while on; the newest request wins.
#include <QObject>
#include <QString>
#include <cstdint>

namespace shallot {

class Editor;

// Random positions tried per compile: on id_e1m1 about 11,000 refused places out of 40,000
// resting ones (docs/round_poses.md), in a second on this machine's pool thread.
inline constexpr int kQuake3OverlaySamples = 100000;

class Quake3CapsuleOverlay : public QObject {
    Q_OBJECT
public:
    explicit Quake3CapsuleOverlay(Editor& editor);
    void setOn(bool on);
    bool isOn() const { return on_; }
    // Refused places drawn of the newest compile, and what the status bar says about them.
    size_t drawnPlaces() const { return drawnPlaces_; }
    const QString& summary() const { return summary_; }
    uint64_t drawnRevision() const { return drawnRevision_; }
    bool busy() const { return running_; }

signals:
    void shown();

private:
    void rebuild();

    Editor& editor_;
    bool on_ = false;
    bool running_ = false, pending_ = false;
    size_t drawnPlaces_ = 0;
    uint64_t drawnRevision_ = 0;
    QString summary_;
};

} // namespace shallot
