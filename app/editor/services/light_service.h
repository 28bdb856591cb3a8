#pragma once
// Light while you draw (issue 41): while the 3D view's shading is Lit or Lightmap only, or
// the Too dark overlay is on, the level is lit (core/light: Quake's direct light from its
// light entities, shadows through the newest compiled tree's point pose) on a pool thread
// after every compile of the document's world and every change of its entities; the lit
// shadings draw it in the 3D view's lit faces layer in place of the flat brush faces. One
// lighting runs at a time; the newest request runs next and older results are dropped.
// With Flat shading and the overlay off nothing is computed.
#include "lit_face_batch.h"
#include "render_scene.h"
#include "services/compile_service.h"

#include <QObject>
#include <QString>
#include <memory>

namespace shallot {

class EditorDocument;

struct LightingResult {
    std::shared_ptr<const CompiledWorld> world; // what it was lit in
    std::shared_ptr<const LevelLighting> lighting;
    uint64_t entityRevision = 0;                // LightService's count of entity changes
    double milliseconds = 0;                    // lighting and batch, wall time
    QString error;                              // why nothing was lit (no point pose...)
    // The entities it was lit from (worldspawn first), and whether it was relit from the one
    // before: only the faces changed lights reach (relight.h, how many) or those near a brush
    // edit (brush_relight.h).
    std::shared_ptr<const std::vector<MapEntity>> entities;
    bool relit = false;
    size_t relitFaces = 0;
};

class LightService : public QObject {
    Q_OBJECT
public:
    LightService(EditorDocument& document, render::RenderScene& scene, QObject* parent = nullptr);
    ~LightService() override;

    void setShading(render::LightShading shading);
    render::LightShading shading() const { return shading_; }
    // Whether the lighting is wanted besides the shading (the Too dark overlay).
    void setOverlayWanted(bool wanted);
    bool active() const { return shading_ != render::LightShading::Flat || overlayWanted_; }
    // The newest compiled world (previews and failed compiles are ignored).
    void request(std::shared_ptr<const CompiledWorld> world);
    // The newest lighting shown (null before the first, and while shading is Flat before one).
    const LightingResult& latest() const { return latest_; }
    bool busy() const { return running_; }

signals:
    // A new lighting is drawn, or the shading changed: one line for the status bar.
    void updated(const QString& summary);
    // A new lighting (or a new drawing of it) is shown.
    void lit();

private:
    void entitiesChanged();
    // Lights the newest world, or (`batchOnly`) draws the lighting shown in the shading now.
    void start(bool batchOnly = false);
    void finished(LightingResult result, render::MeshBatch batch, render::LightShading shading);
    bool latestIsCurrent() const;
    void showShading();
    QString summary() const;

    EditorDocument& document_;
    render::RenderScene& scene_;
    render::LightShading shading_ = render::LightShading::Flat;
    bool overlayWanted_ = false;
    std::shared_ptr<const CompiledWorld> wanted_;
    uint64_t entityRevision_ = 0;
    bool running_ = false;
    LightingResult latest_;
    render::LightShading drawnShading_ = render::LightShading::Flat; // of the layer's batch (Flat: none)
};

} // namespace shallot
