#include "tools/entity_tool.h"

#include "document/edit_commands.h"
#include "editor.h"
#include "document/entity_edits.h"
#include "tools/view_picking.h"
#include "world/entity_class.h"

namespace shallot {

bool EntityTool::press(const ViewPoint& p) {
    EditorDocument& doc = editor_.document();
    const EntityClass cls = classOf(editor_.entityClasses(), classname_);
    Vec3 origin = editor_.snap(p.world);
    // Standing on the floor below the point at the view's working depth (in the top view,
    // the floor nearest below its working height, as for rays). A click inside a brush at
    // the working height puts it there, as clicked: its spawn check then says so.
    if (p.depthAxis == 2) {
        const Vec3 clicked(origin.x(), origin.y(), p.world.z());
        if (!insideBrush(editor_, clicked)) origin.z() = floorBelow(editor_, clicked, true).value_or(0.0) - cls.mins.z();
    } else {
        if (const std::optional<double> floor = floorBelow(editor_, origin + Vec3(0, 0, cls.mins.z())))
            origin.z() = *floor - cls.mins.z();
    }
    MapEntity entity;
    entity.keys = {{"classname", cls.name}, {"origin", formatEntityVector(origin)}};
    const int at = int(doc.entities().size());
    doc.setSelection({});
    doc.undoStack()->push(new ReplaceEntitiesCommand(&doc, QString("Place %1").arg(QString::fromStdString(cls.name)), {},
                                                     {{at, entity}}, {at}));
    return false;
}

} // namespace shallot
