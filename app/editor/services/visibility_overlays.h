#pragma once
// The overlays of what the eye sees (issue 39), from the newest PVS (pvs_service.h):
// - Visible: the leaves in the PVS of the leaf of a point, the 3D camera's eye unless
//   kept (Keep position freezes it where it is; a point inspected with the Inspect tool
//   while the overlay is on becomes the kept point), drawn in 3D and in the 2D sections;
// - View weight: every leaf coloured by the brush faces in its PVS against the document's
//   limit (palette.h, viewWeightColour).
// Built on a pool thread when the PVS or the eye's leaf changes, the newest request wins.
#include "services/pvs_service.h"

#include <QObject>
#include <memory>
#include <optional>
#include <vector>

namespace shallot {

class Editor;

class VisibilityOverlays : public QObject {
    Q_OBJECT
public:
    VisibilityOverlays(Editor& editor, PvsService& pvs);

    void setVisibleOn(bool on);
    void setWeightOn(bool on);
    bool visibleOn() const { return visibleOn_; }
    bool weightOn() const { return weightOn_; }
    // Keep position: the Visible overlay stays at the eye's point now (or the point kept)
    // while the camera moves.
    void setKeep(bool keep);
    bool keep() const { return kept_.has_value(); }
    // The point whose leaf's PVS the Visible overlay shows, and that leaf in the PVS's
    // world (-1: none yet, or the point is in solid).
    Vec3 source() const;
    int32_t sourceLeaf() const { return drawn_.leaf; }
    size_t visibleLeafCount() const { return visibleCount_; }
    // What the sections draw of the compiled world `serial` (nothing of another).
    std::shared_ptr<const std::vector<bool>> visibleLeaves(uint64_t serial) const;
    std::shared_ptr<const std::vector<uint32_t>> viewWeights(uint64_t serial) const;
    // The PVS and its world's serial of the layers shown.
    uint64_t shownSerial() const { return shown_.serial; }
    const std::shared_ptr<const SightPvs>& drawnPvs() const { return drawn_.pvs; }

signals:
    void keepChanged(bool keep);
    void shown(); // new layers drawn

private:
    // What the layers were drawn from: the PVS, the eye's leaf in its world, the settings.
    struct Key {
        std::shared_ptr<const SightPvs> pvs;
        int32_t leaf = -1;
        bool visibleOn = false, weightOn = false;
        uint32_t limit = 0;
        bool operator==(const Key&) const = default;
    };
    Key wantedKey() const; // of the newest PVS, the source point and the settings now
    void refresh();
    void start();

    Editor& editor_;
    PvsService& pvs_;
    bool visibleOn_ = false, weightOn_ = false;
    std::optional<Vec3> kept_;
    bool running_ = false, pending_ = false;
    Key drawn_, building_;
    struct Shown {
        uint64_t serial = 0;
        std::shared_ptr<const std::vector<bool>> visible;
        std::shared_ptr<const std::vector<uint32_t>> weights;
    } shown_;
    size_t visibleCount_ = 0;
};

} // namespace shallot
