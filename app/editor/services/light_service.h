#pragma once
// Light while you draw (issue 41): while the 3D view's shading is Lit or Lightmap only, or
// the Too dark overlay is on, the level is lit (core/light: Quake's direct light from its
// light entities, shadows through the newest compiled tree's point pose) on a pool thread
// after every compile of the document's world and every change of its entities; the lit
// shadings draw it in the 3D view's lit faces layer in place of the flat brush faces.
// A lighting is two passes: a coarse one (every kCoarseLuxelStride-th luxel, bilinear
// between, a sky dome's suns merged: coarse_lattice.h, coarse_suns.h), shown when the full
// one is worth waiting for, then the faces it lit refined in full (refine_lighting.h); one
// full pass when the last full pass was quick (kCoarsePictureWorthMs). A newer request cancels the running lighting
// (its token, checked before each face) and starts at once; a superseded lighting's
// results are never shown. The UI thread never waits for a lighting. With Flat shading
// and the overlay off nothing is computed.
// Light Bounces (the document's lightBounces, View > Light Bounces): after the full direct
// light, that many bounces of diffuse light (core/light/bounce.h) are added on the same pool
// thread, cancelled like the rest; their receivers narrowed by the PVS service's newest PVS
// when it is of the same compiled world and the shadows' pose (the same light either way).
// The direct light is kept apart from the one shown: the relights start from it.
#include "lit_face_batch.h"
#include "render_scene.h"
#include "services/compile_service.h"
#include "services/pvs_service.h"

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
    // The coarse picture (its full lighting still coming); when full, how long after the
    // request its coarse picture was shown (0: none was: the full one came soon enough).
    bool coarse = false;
    double coarseMilliseconds = 0;
    // The full pass's wall time: the refinement, or the whole lighting when it ran in one pass.
    double fullPassMilliseconds = 0;
    double batchMilliseconds = 0; // building its lit faces' batch (0: none built)
    uint64_t generation = 0; // LightService's count of lightings started
    // The full direct light (null on a coarse picture): `lighting` is it plus `bounces`
    // bounces. The next lighting relights from it.
    std::shared_ptr<const LevelLighting> direct;
    int bounces = 0;
    double bounceMilliseconds = 0;
    bool bouncePvs = false;     // the bounce's receivers were narrowed by the PVS
    bool bounceComing = false;  // the full direct light shown while its bounces are computed
    bool directKept = false;    // the direct light of the lighting before (only the bounces changed)
};

// The coarse picture is drawn when the full lighting is expected this much after it or
// later (a few frames at 60 Hz), and later than building its batch takes (librequake_e3m4:
// 0.6 s): a sooner full lighting replaces it before anyone sees it, and drawing it would
// only delay the full one by a second batch. A lighting runs in one full pass when the
// last one's full pass took less (id_e1m1's light moves: the coarse pass would double
// their 7 ms), else coarse first.
inline constexpr double kCoarsePictureWorthMs = 50.0;

// Nothing lights the level (no light, no sun, no minlight): the game shows it black.
bool litByNothing(const LevelLighting& lighting);

class LightService : public QObject {
    Q_OBJECT
public:
    // `pvs` (optional): whose newest PVS narrows the bounce's receivers.
    LightService(EditorDocument& document, render::RenderScene& scene, const PvsService* pvs = nullptr,
                 QObject* parent = nullptr);
    ~LightService() override;

    void setShading(render::LightShading shading);
    render::LightShading shading() const { return shading_; }
    // Whether the lighting is wanted besides the shading (the Too dark overlay).
    void setOverlayWanted(bool wanted);
    bool active() const { return shading_ != render::LightShading::Flat || overlayWanted_; }
    // The newest compiled world (previews and failed compiles are ignored).
    void request(std::shared_ptr<const CompiledWorld> world);
    // The newest lighting shown (null before the first, and while shading is Flat before
    // one; a coarse picture while its full lighting is coming).
    const LightingResult& latest() const { return latest_; }
    // A lighting is running (its full result not shown yet).
    bool busy() const { return running_; }
    // Lightings started, and of them cancelled by a newer request.
    uint64_t generation() const { return generation_; }
    uint64_t cancelled() const { return cancelled_; }

signals:
    // A new lighting is drawn, or the shading changed: one line for the status bar.
    void updated(const QString& summary);
    // A new lighting (or a new drawing of it) is shown.
    void lit();

private:
    void entitiesChanged();
    int bounces() const;
    // Starts a lighting from the event loop, once for every change made in one go (moving
    // an entity removes and inserts it: the level without it is not worth lighting).
    void startSoon();
    // Lights the newest world, cancelling a running lighting.
    void start();
    // Draws the lighting shown in the shading now.
    void redraw();
    // A pass's result, on the UI thread: shown unless a newer lighting started.
    void passDone(LightingResult result, render::MeshBatch batch, render::LightShading shading);
    // The newest lighting started (or shown) is of the newest world and entities.
    bool currentOrComing() const;
    void showShading();
    QString summary() const;

    EditorDocument& document_;
    render::RenderScene& scene_;
    const PvsService* pvs_;
    render::LightShading shading_ = render::LightShading::Flat;
    bool overlayWanted_ = false;
    std::shared_ptr<const CompiledWorld> wanted_;
    uint64_t entityRevision_ = 0;
    bool running_ = false, startPending_ = false;
    uint64_t generation_ = 0, cancelled_ = 0;
    std::shared_ptr<CancelToken> token_;       // of the running lighting
    std::shared_ptr<const CompiledWorld> runningWorld_; // what it lights
    uint64_t runningRevision_ = 0;
    int runningBounces_ = 0;
    LightingResult latest_;
    LightingResult base_; // the newest full lighting: what the next one relights from
    bool coarseFirst_ = true; // the last full pass took kCoarsePictureWorthMs or more (or none ran)
    double lastBatchMs_ = 0;  // the last batch's build
    double lastBounceMs_ = -1; // the last bounce's (-1: none ran)
    render::LightShading drawnShading_ = render::LightShading::Flat; // of the layer's batch (Flat: none)
};

} // namespace shallot
