#include "services/mover_paths.h"

#include "editor.h"
#include "mover_paths_batch.h"
#include "check/mover_checks.h"
#include "movers/build_movers.h"

namespace shallot {

MoverPaths::MoverPaths(Editor& editor) : QObject(&editor), editor_(editor) {
    connect(&editor_.document(), &EditorDocument::entitiesChanged, this, &MoverPaths::rebuild);
    connect(&editor_.document(), &EditorDocument::documentReset, this, &MoverPaths::rebuild);
    editor_.scene().setVisible(render::Layer::MoverVolumes, false);
    editor_.scene().setVisible(render::Layer::MoverOutlines, false);
}

void MoverPaths::setOn(bool on) {
    if (on_ == on) return;
    on_ = on;
    editor_.scene().setVisible(render::Layer::MoverVolumes, on);
    editor_.scene().setVisible(render::Layer::MoverOutlines, on);
    rebuild();
    emit editor_.sceneChanged();
}

void MoverPaths::rebuild() {
    if (!on_) return;
    const DocumentData& data = editor_.document().data();
    const LevelMovers movers = buildMovers(mapOfDocumentEntities(data.entities, data.game, data.worldKeys));
    render::MoverPathBatches batches = render::buildMoverPathBatches(movers);
    drawn_ = 0;
    for (const Mover& m : movers.movers) drawn_ += m.kind != MoverKind::Static && m.motion.stops.size() > 1;
    editor_.scene().set(render::Layer::MoverVolumes, std::move(batches.volumes));
    editor_.scene().set(render::Layer::MoverOutlines, std::move(batches.outlines));
    emit editor_.sceneChanged();
}

} // namespace shallot
