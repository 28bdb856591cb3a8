#include "services/quake3_capsule_overlay.h"

#include "editor.h"
#include "palette.h"
#include "query/shifted_plane_comparison.h"
#include "services/background_jobs.h"
#include "services/background_release.h"

#include <QPointer>

namespace shallot {

namespace {
// Half the size of a place's cross (world units).
constexpr double kCrossHalf = 3.0;
} // namespace

Quake3CapsuleOverlay::Quake3CapsuleOverlay(Editor& editor) : QObject(&editor), editor_(editor) {
    connect(&editor_.compiler(), &CompileService::compiled, this, &Quake3CapsuleOverlay::rebuild);
    connect(&editor_, &Editor::currentPoseChanged, this, &Quake3CapsuleOverlay::rebuild);
    connect(&editor_.document(), &EditorDocument::posesChanged, this, &Quake3CapsuleOverlay::rebuild);
}

void Quake3CapsuleOverlay::setOn(bool on) {
    if (on_ == on) return;
    on_ = on;
    editor_.scene().setVisible(render::Layer::Quake3Refusals, on);
    if (on) rebuild();
    else summary_.clear();
}

void Quake3CapsuleOverlay::rebuild() {
    if (!on_) return;
    if (running_) {
        pending_ = true;
        return;
    }
    std::shared_ptr<const CompiledWorld> compiled = editor_.compiler().latest();
    const int poseIndex = editor_.currentPose();
    const std::vector<Pose>& poses = editor_.document().poses();
    if (!compiled || isPreviewRevision(compiled->revision) || poseIndex < 0 || size_t(poseIndex) >= poses.size()) return;
    const Pose pose = poses[size_t(poseIndex)];
    if (!pose.shape.isRound()) {
        editor_.scene().set(render::Layer::Quake3Refusals, render::MeshBatch{});
        drawnPlaces_ = 0;
        drawnRevision_ = compiled->revision;
        summary_ = QString("Quake 3 capsule: the pose %1 is a box; choose a capsule pose (Poses dock, Shape column)")
                       .arg(QString::fromStdString(pose.name));
        emit shown();
        return;
    }
    running_ = true;
    QPointer<Quake3CapsuleOverlay> self(this);
    runInBackground([self, compiled, pose]() mutable {
        ShiftedPlaneComparisonSettings settings;
        settings.samples = kQuake3OverlaySamples;
        settings.keepRefusals = kQuake3OverlaySamples;
        ShiftedPlaneComparison c;
        QString summary;
        try {
            c = compareShiftedPlanes(compiled->world, pose, settings);
            summary = QString("Quake 3 refuses %1: %2 of %3 resting places (%4%) and %5 of %6 beside walls, up to %7 units deep")
                          .arg(QString::fromStdString(pose.name))
                          .arg(c.resting.refused).arg(c.resting.places).arg(100 * c.resting.share(), 0, 'f', 1)
                          .arg(c.beside.refused).arg(c.beside.places)
                          .arg(std::max(c.resting.maxDepth, c.beside.maxDepth), 0, 'f', 1);
        } catch (const std::exception& e) {
            summary = QString("Quake 3 capsule: ") + e.what();
        }
        render::MeshBatch batch;
        batch.primitive = render::Primitive::Lines;
        batch.lit = false;
        const double feet = boundingHalfExtents(pose.shape).z();
        for (const ShiftedPlaneRefusal& r : c.refusals) {
            const Vec3 at = r.resting ? Vec3(r.position - feet * Vec3::UnitZ()) : r.position;
            for (int axis = 0; axis < 3; ++axis)
                batch.addLine(at - kCrossHalf * Vec3::Unit(axis), at + kCrossHalf * Vec3::Unit(axis), render::kQuake3RefusedColour);
        }
        const uint64_t revision = compiled->revision;
        releaseInBackground(std::move(compiled));
        postToUiThread([self, batch = std::move(batch), places = c.refusals.size(), summary, revision]() mutable {
            if (!self) return;
            self->running_ = false;
            if (self->pending_) {
                self->pending_ = false;
                self->rebuild();
                return;
            }
            self->drawnPlaces_ = places;
            self->drawnRevision_ = revision;
            self->summary_ = summary;
            self->editor_.scene().set(render::Layer::Quake3Refusals, std::move(batch));
            emit self->shown();
            emit self->editor_.statusMessage(summary);
            emit self->editor_.sceneChanged();
        });
    });
}

} // namespace shallot
