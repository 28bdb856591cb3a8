#include "overlay_menus.h"

#include "editor.h"
#include "help_page.h"
#include "services/light_service.h"
#include "services/mover_paths.h"
#include "services/overlay_controller.h"

#include <QActionGroup>
#include <QComboBox>
#include <QInputDialog>
#include <QMenu>
#include <QSettings>
#include <QToolBar>

namespace shallot {

namespace {

void addPoseSelector(QToolBar* bar, Editor& editor) {
    auto* pose = new QComboBox(bar);
    pose->setObjectName("poseSelector");
    pose->setToolTip("Pose the overlays show");
    bar->addWidget(pose);
    auto refillPoses = [&editor, pose] {
        const QSignalBlocker block(pose);
        pose->clear();
        for (const Pose& p : editor.document().poses()) pose->addItem(QString::fromStdString(p.name));
        pose->setCurrentIndex(editor.currentPose());
    };
    QObject::connect(&editor.document(), &EditorDocument::posesChanged, pose, refillPoses);
    QObject::connect(pose, &QComboBox::currentIndexChanged, &editor, [&editor](int i) {
        if (i >= 0) editor.setCurrentPose(i);
    });
    QObject::connect(&editor, &Editor::currentPoseChanged, pose, [pose](int i) {
        const QSignalBlocker block(pose);
        pose->setCurrentIndex(i);
    });
    refillPoses();
}

void addCellFilters(QMenu* view, Editor& editor) {
    OverlayController& overlays = editor.overlays();
    QMenu* filter = view->addMenu("Cells to show");
    auto* filters = new QActionGroup(filter);
    const std::tuple<render::CellFilter, const char*, const char*> filterDefs[] = {
        {render::CellFilter::Empty, "Empty in the pose", "cellsEmpty"},
        {render::CellFilter::Solid, "Solid in the pose", "cellsSolid"},
        {render::CellFilter::DiffersBetweenPoses, "Differs between poses", "cellsDiffers"},
        {render::CellFilter::All, "All", "cellsAll"}};
    for (const auto& [f, text, name] : filterDefs) {
        QAction* a = filter->addAction(text);
        a->setObjectName(name);
        a->setCheckable(true);
        a->setChecked(f == overlays.cellFilter());
        filters->addAction(a);
        const render::CellFilter chosen = f;
        QObject::connect(a, &QAction::triggered, &editor, [&overlays, chosen] { overlays.setCellFilter(chosen); });
        QObject::connect(&overlays, &OverlayController::cellOptionsChanged, a,
                         [a, chosen, &overlays] { a->setChecked(overlays.cellFilter() == chosen); });
    }
    QAction* fill = view->addAction("Grey out unreachable cells");
    fill->setObjectName("greyUnreachable");
    fill->setCheckable(true);
    fill->setToolTip("Fill outside: cells the reach start cannot get to (or, without a start, cells reachable from the void) in grey");
    QObject::connect(fill, &QAction::toggled, &editor, [&overlays](bool on) { overlays.setGreyUnreachable(on); });
    QAction* bitset = view->addAction("Colour cells by full bitset");
    bitset->setObjectName("cellsByBitset");
    bitset->setCheckable(true);
    QObject::connect(bitset, &QAction::toggled, &editor, [&overlays](bool on) {
        overlays.setCellColouring(on ? render::CellColouring::ByBitset : render::CellColouring::BySolidity);
    });
    QObject::connect(&overlays, &OverlayController::cellOptionsChanged, view, [fill, bitset, &overlays] {
        fill->setChecked(overlays.greyUnreachable());
        bitset->setChecked(overlays.cellColouring() == render::CellColouring::ByBitset);
    });
}

// Keep position (the Visible overlay stays where the eye is now) and the view weight limit.
void addVisibilityControls(QMenu* view, Editor& editor) {
    VisibilityOverlays& visibility = editor.overlays().visibility();
    QAction* keep = view->addAction("Keep Visible Position");
    keep->setObjectName("keepVisiblePosition");
    keep->setCheckable(true);
    keep->setToolTip("The Visible overlay stays at the camera's point now (or the point inspected with I) while the camera moves");
    QObject::connect(keep, &QAction::toggled, &editor, [&visibility](bool on) { visibility.setKeep(on); });
    QObject::connect(&visibility, &VisibilityOverlays::keepChanged, keep, [keep](bool on) {
        const QSignalBlocker block(keep);
        keep->setChecked(on);
    });
    QAction* limit = view->addAction("View Weight Limit...");
    limit->setObjectName("viewWeightLimit");
    limit->setToolTip("Leaves that may see more brush faces than this are coloured over the limit and listed as problems");
    QObject::connect(limit, &QAction::triggered, &editor, [&editor, view] {
        bool ok = false;
        const int value = QInputDialog::getInt(view->parentWidget(), "View Weight Limit",
                                               "Brush faces a leaf may see before it is a problem:",
                                               int(editor.document().data().viewWeightLimit), 1, 10000000, 100, &ok);
        if (ok) editor.document().setViewWeightLimit(uint32_t(value));
    });
}

// How many bounces of diffuse light the lit view adds (issue 41's radiosity): the
// document's choice, saved with it.
void addBounceChoice(QMenu* view, Editor& editor) {
    QMenu* menu = view->addMenu("Light Bounces");
    menu->setObjectName("lightBouncesMenu");
    menu->setToolTip("Diffuse light bounced between faces, added to the direct light in the Lit and Lightmap Only shadings");
    auto* group = new QActionGroup(menu);
    std::vector<QAction*> choices;
    for (int n = 0; n <= kMaxEditorLightBounces; ++n) {
        QAction* a = menu->addAction(n == 0 ? QString("None") : QString::number(n));
        a->setObjectName(QString("lightBounces%1").arg(n));
        a->setCheckable(true);
        group->addAction(a);
        choices.push_back(a);
        QObject::connect(a, &QAction::triggered, &editor, [&editor, n] { editor.document().setLightBounces(n); });
    }
    const auto showChoice = [&editor, choices] {
        choices[size_t(editor.document().data().lightBounces)]->setChecked(true);
    };
    showChoice();
    QObject::connect(&editor.document(), &EditorDocument::lightBouncesChanged, menu, showChoice);
    QObject::connect(&editor.document(), &EditorDocument::worldReplaced, menu, showChoice);
}

// The 3D view's shading: flat brush colours, or the level in its light (issue 41).
void addShadingControls(QMenu* view, Editor& editor) {
    QAction* limit = view->addAction("Too Dark Limit...");
    limit->setObjectName("darkLimit");
    limit->setToolTip("Walkable floors lit under this light level (0-255, the lightmap's) are shown by the Too dark overlay");
    QObject::connect(limit, &QAction::triggered, &editor, [&editor, view] {
        bool ok = false;
        const int value = QInputDialog::getInt(view->parentWidget(), "Too Dark Limit", "Light level under which a floor is too dark:",
                                               editor.document().data().darkLimit, 1, 255, 1, &ok);
        if (ok) editor.document().setDarkLimit(value);
    });
    QAction* movers = view->addAction("Mover Paths");
    movers->setObjectName("moverPaths");
    movers->setCheckable(true);
    movers->setToolTip("Where the doors, plats, trains and buttons go: each one's swept volume ghosted, its other stops "
                       "outlined, a train's path from corner to corner");
    QObject::connect(movers, &QAction::toggled, &editor, [&editor](bool on) { editor.moverPaths().setOn(on); });
    QMenu* shading = view->addMenu("3D Shading");
    shading->setObjectName("shadingMenu");
    auto* group = new QActionGroup(shading);
    const std::tuple<render::LightShading, const char*, const char*, const char*> defs[] = {
        {render::LightShading::Flat, "Flat", "shadingFlat", "Brush colours under a head light: nothing is lit"},
        {render::LightShading::Lit, "Lit", "shadingLit",
         "The level lit as Quake's light tool lights it (its light entities, shadows), times each face's colour; relit after every edit"},
        {render::LightShading::LightmapOnly, "Lightmap Only", "shadingLightmap", "The light alone, in its colour"}};
    for (const auto& [mode, text, name, tip] : defs) {
        QAction* a = shading->addAction(text);
        a->setObjectName(name);
        a->setToolTip(tip);
        a->setCheckable(true);
        a->setChecked(mode == editor.lighting().shading());
        group->addAction(a);
        const render::LightShading chosen = mode;
        QObject::connect(a, &QAction::triggered, &editor, [&editor, chosen] { editor.lighting().setShading(chosen); });
    }
    addBounceChoice(view, editor);
}

} // namespace

void addOverlayControls(QMenu* view, QToolBar* bar, Editor& editor) {
    OverlayController& overlays = editor.overlays();
    const std::pair<Overlay, std::pair<const char*, const char*>> defs[] = {
        {Overlay::Cells, {"Leaf cells", "Alt+1"}},  {Overlay::Portals, {"Portals", "Alt+2"}},
        {Overlay::Union, {"Expanded world", "Alt+3"}}, {Overlay::Reach, {"Reachability", "Alt+4"}},
        {Overlay::Rays, {"Test rays", "Alt+5"}}, {Overlay::Walkable, {"Walkable", "Alt+6"}},
        {Overlay::Visible, {"Visible", "Alt+7"}}, {Overlay::ViewWeight, {"View weight", "Alt+8"}},
        {Overlay::TooDark, {"Too dark", "Alt+9"}}, {Overlay::Quake3Capsule, {"Quake 3 capsule", "Alt+0"}}};
    bar->setObjectName("OverlayToolbar");
    addPoseSelector(bar, editor);
    for (const auto& [overlay, def] : defs) {
        QAction* a = view->addAction(def.first);
        a->setObjectName(QString("overlay") + QString(def.first).remove(' '));
        a->setShortcut(QKeySequence(def.second));
        a->setCheckable(true);
        a->setChecked(overlays.isOn(overlay));
        a->setToolTip(helpTooltip(def.first));
        bar->addAction(a);
        const Overlay o = overlay;
        QObject::connect(a, &QAction::toggled, &editor, [&overlays, o](bool on) { overlays.setOn(o, on); });
        QObject::connect(&overlays, &OverlayController::overlayToggled, a, [a, o](Overlay which, bool on) {
            if (which == o) a->setChecked(on);
        });
    }
    addCellFilters(view, editor);
    addVisibilityControls(view, editor);
    addShadingControls(view, editor);
    QAction* legends = view->addAction("Colour Legends");
    legends->setObjectName("legends");
    legends->setCheckable(true);
    legends->setShortcut(QKeySequence("Ctrl+L"));
    legends->setToolTip("Each view's list of the colours it shows, in its corner (hide it to see what lies under it)");
    legends->setChecked(QSettings().value("view/legends", true).toBool());
    editor.setLegendsShown(legends->isChecked());
    QObject::connect(legends, &QAction::toggled, &editor, [&editor](bool on) {
        QSettings().setValue("view/legends", on);
        editor.setLegendsShown(on);
    });
    QAction* sections = view->addAction("2D Overlays as Cross-Sections");
    sections->setObjectName("sections2d");
    sections->setCheckable(true);
    sections->setToolTip("On: each 2D view shows the overlays cut by its working plane (drag the x, y, z tabs; Page Up/Down). "
                         "Off: the 3D overlays seen along the view axis, every height stacked");
    sections->setChecked(QSettings().value("view/sections2d", true).toBool());
    overlays.sections().setOn(sections->isChecked());
    QObject::connect(sections, &QAction::toggled, &editor, [&overlays](bool on) {
        QSettings().setValue("view/sections2d", on);
        overlays.sections().setOn(on);
    });
}

void addEntityMenu(QMenu* view, Editor& editor) {
    QMenu* entities = view->addMenu("&Entities");
    for (int c = 0; c < kEntityCategoryCount; ++c) {
        const auto category = EntityCategory(c);
        QString name = categoryName(category);
        name[0] = name[0].toUpper();
        QAction* a = entities->addAction(name);
        a->setObjectName(QString("showEntities%1").arg(c));
        a->setCheckable(true);
        a->setChecked(editor.entityCategoryVisible(category));
        a->setToolTip(QString("Show or hide %1 in every view").arg(categoryName(category)));
        QObject::connect(a, &QAction::toggled, &editor, [&editor, category](bool on) { editor.setEntityCategoryVisible(category, on); });
        QObject::connect(&editor, &Editor::entityCategoryVisibleChanged, a, [a, category](EntityCategory which, bool on) {
            if (which == category) a->setChecked(on);
        });
    }
}

} // namespace shallot
