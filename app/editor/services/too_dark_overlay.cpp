#include "services/too_dark_overlay.h"

#include "editor.h"
#include "services/background_jobs.h"
#include "services/light_service.h"
#include "services/overlay_controller.h"
#include "too_dark_batch.h"

#include <QPointer>

namespace shallot {

TooDarkOverlay::TooDarkOverlay(Editor& editor) : QObject(&editor), editor_(editor) {
    connect(&editor_.lighting(), &LightService::lit, this, &TooDarkOverlay::rebuild);
    connect(&editor_.overlays().nav(), &NavService::built, this, &TooDarkOverlay::rebuild);
    connect(&editor_, &Editor::currentPoseChanged, this, &TooDarkOverlay::rebuild);
    connect(&editor_.document(), &EditorDocument::darkLimitChanged, this, &TooDarkOverlay::rebuild);
}

void TooDarkOverlay::setOn(bool on) {
    if (on_ == on) return;
    on_ = on;
    editor_.lighting().setOverlayWanted(on);
    editor_.scene().setVisible(render::Layer::TooDark, on);
    rebuild();
}

bool TooDarkOverlay::current() const {
    const std::shared_ptr<const LevelLighting> drawn = drawnLighting_.lock();
    return on_ && !running_ && !pending_ && drawn && drawn == editor_.lighting().latest().lighting;
}

void TooDarkOverlay::rebuild() {
    if (!on_) return;
    if (running_) {
        pending_ = true;
        return;
    }
    const std::shared_ptr<const LevelLighting> lighting = editor_.lighting().latest().lighting;
    const std::shared_ptr<const NavMeshes> meshes = editor_.overlays().nav().meshes();
    const int pose = editor_.currentPose();
    if (!lighting || !meshes || !meshes->mesh(pose)) return;
    running_ = true;
    QPointer<TooDarkOverlay> self(this);
    const double feet = meshes->world->result->onion.poses[size_t(pose)].mins.z();
    runInBackground([self, lighting, meshes, pose, feet, limit = editor_.document().data().darkLimit]() {
        render::MeshBatch batch = render::buildTooDarkBatch(*lighting, *meshes->mesh(pose), feet, limit);
        postToUiThread([self, batch = std::move(batch), drawn = std::weak_ptr<const LevelLighting>(lighting)]() mutable {
            if (!self) return;
            self->running_ = false;
            if (self->pending_) {
                self->pending_ = false;
                self->rebuild();
                return;
            }
            self->drawnTriangles_ = batch.vertices.size() / 3;
            self->drawnLighting_ = drawn;
            self->editor_.scene().set(render::Layer::TooDark, std::move(batch));
            emit self->shown();
            emit self->editor_.sceneChanged();
        });
    });
}

} // namespace shallot
