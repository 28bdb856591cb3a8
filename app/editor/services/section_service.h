#pragma once
// The 2D views' overlays as cross-sections (render/section_overlays.h): each 2D view shows
// the level cut by its working plane. Built on a pool thread after every compile, change of
// the overlay settings and move of the working point, one build at a time (a newer request
// waits for the running one and replaces any other waiting). The leaves' regions on a
// plane (portal/leaf_sections.h) take well under a millisecond on id_e1m1, so the sections
// are built whole each time.
#include "services/compile_service.h"
#include "services/heavy_overlays.h"
#include "section_overlays.h"

#include <QObject>
#include <array>
#include <memory>

namespace shallot {

class Editor;

struct SectionRequest {
    std::shared_ptr<const CompiledWorld> compiled;
    HeavySettings settings;
    Vec3 workingPoint = Vec3::Zero();
    std::vector<std::shared_ptr<const BrushGeometry>> brushes; // as the editor has them now
    // The Visible and View weight overlays, per leaf of `compiled` (null: not shown).
    std::shared_ptr<const std::vector<bool>> visible;
    std::shared_ptr<const std::vector<uint32_t>> viewWeights;
    uint32_t viewWeightLimit = 0;
    // A round current pose's cells and expanded world (round_pose_drawing.h), cut instead of
    // its bounding box's; null: not drawn (yet).
    std::shared_ptr<const RoundPoseCells> roundCells;
    std::shared_ptr<const RoundPoseSurface> roundSurface;
};

class SectionService : public QObject {
    Q_OBJECT
public:
    explicit SectionService(Editor& editor);
    // On: the 2D views show sections; off: the projected 3D overlays, as the 3D view does.
    bool isOn() const { return on_; }
    void setOn(bool on);
    // A round pose's rounded surface is in the expanded world's layer: its cut is drawn in
    // the sections, and with sections off the 2D views leave it out (its triangles
    // projected would cover the view).
    void setRoundSurfaceShown(bool shown);
    void request(SectionRequest request);
    // Builds shown so far, and the working point and compile of the last one shown (tests).
    quint64 shownBuilds() const { return shownBuilds_; }
    const SectionRequest& shown() const { return shown_; }
    // Milliseconds the last build shown took on its pool thread (the three views' sections).
    double lastBuildMs() const { return lastBuildMs_; }

signals:
    void sectionsShown();

private:
    // What a build keeps for the next one of the same compiled world: the void of a pose,
    // which depends on the tree alone.
    struct TreeCache {
        uint64_t serial = 0;
        int voidPose = -1;
        std::shared_ptr<const std::vector<bool>> voidLeaves;
    };
    struct Built {
        std::array<render::SectionBatches, 3> axes;
        TreeCache cache;
        double milliseconds = 0;
    };
    static Built build(const SectionRequest& request, TreeCache cache);
    void start();
    void show(Built& built, SectionRequest request);
    void clearLayers();
    void showMode(); // the scene's 2D layers as the mode wants them

    Editor& editor_;
    bool on_ = true;
    bool roundSurfaceShown_ = false;
    bool running_ = false;
    std::optional<SectionRequest> waiting_;
    TreeCache cache_;
    SectionRequest shown_;
    quint64 shownBuilds_ = 0;
    double lastBuildMs_ = 0;
};

} // namespace shallot
