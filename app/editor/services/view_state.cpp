#include "services/view_state.h"

#include "check/spawn_checks.h"
#include "editor.h"
#include "io/game_profile.h"
#include "services/mover_states.h"
#include "services/overlay_controller.h"

#include <algorithm>
#include <array>
#include <utility>

namespace shallot {

namespace {

// The overlays' names in documents, as on the command line (overlay_names.h).
constexpr std::array<std::pair<Overlay, const char*>, 10> kOverlayNames{{{Overlay::Cells, "cells"},
                                                                        {Overlay::Portals, "portals"},
                                                                        {Overlay::Union, "union"},
                                                                        {Overlay::Reach, "reach"},
                                                                        {Overlay::Rays, "rays"},
                                                                        {Overlay::Walkable, "walkable"},
                                                                        {Overlay::Visible, "visible"},
                                                                        {Overlay::ViewWeight, "weight"},
                                                                        {Overlay::TooDark, "dark"},
                                                                        {Overlay::Quake3Capsule, "q3capsule"}}};

constexpr std::array<std::pair<render::CellFilter, const char*>, 4> kCellFilterNames{
    {{render::CellFilter::Empty, "empty"},
     {render::CellFilter::Solid, "solid"},
     {render::CellFilter::DiffersBetweenPoses, "differs"},
     {render::CellFilter::All, "all"}}};

int poseNamed(const Editor& editor, const std::string& name) {
    const auto& poses = editor.document().poses();
    const auto it = std::find_if(poses.begin(), poses.end(), [&](const Pose& p) { return p.name == name; });
    return it == poses.end() ? -1 : int(it - poses.begin());
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

ViewState currentViewState(const Editor& editor) {
    ViewState view;
    const int pose = editor.currentPose();
    if (pose >= 0) view.pose = editor.document().poses()[size_t(pose)].name;
    const OverlayController& overlays = editor.overlays();
    for (const auto& [overlay, name] : kOverlayNames)
        if (overlays.isOn(overlay)) view.overlays.emplace_back(name);
    for (const auto& [filter, name] : kCellFilterNames)
        if (overlays.cellFilter() == filter) view.cells = name;
    view.cellsByBitset = overlays.cellColouring() == render::CellColouring::ByBitset;
    view.greyUnreachable = overlays.greyUnreachable();
    for (int c = 0; c < kEntityCategoryCount; ++c)
        if (!editor.entityCategoryVisible(EntityCategory(c))) view.hiddenEntities.emplace_back(categoryName(EntityCategory(c)));
    const MoverStates& movers = editor.moverStates();
    view.movers = moverPlacementName(movers.placement());
    view.moverSeconds = movers.seconds();
    view.moverSwept = movers.sweptShown();
    return view;
}

void showViewState(Editor& editor, const std::optional<ViewState>& saved, const QString& preferredPose) {
    OverlayController& overlays = editor.overlays();
    const ViewState view = saved.value_or(ViewState{});
    editor.moverStates().setPlacement(moverPlacementNamed(view.movers).value_or(MoverPlacement::Spawn), view.moverSeconds);
    editor.moverStates().setSweptShown(view.moverSwept);
    if (!saved) {
        const int preferred = preferredPose.isEmpty() ? -1 : poseNamed(editor, preferredPose.toStdString());
        const int pose = preferred >= 0 ? preferred : walkingPose(editor);
        if (pose >= 0) editor.setCurrentPose(pose);
        overlays.setOn(Overlay::Cells, true);
        return;
    }
    const int pose = poseNamed(editor, saved->pose);
    editor.setCurrentPose(pose >= 0 ? pose : std::max(0, walkingPose(editor)));
    for (const auto& [filter, name] : kCellFilterNames)
        if (saved->cells == name) overlays.setCellFilter(filter);
    overlays.setCellColouring(saved->cellsByBitset ? render::CellColouring::ByBitset : render::CellColouring::BySolidity);
    overlays.setGreyUnreachable(saved->greyUnreachable);
    for (const auto& [overlay, name] : kOverlayNames) overlays.setOn(overlay, contains(saved->overlays, name));
    for (int c = 0; c < kEntityCategoryCount; ++c)
        editor.setEntityCategoryVisible(EntityCategory(c), !contains(saved->hiddenEntities, categoryName(EntityCategory(c))));
}

int walkingPose(const Editor& editor) {
    const auto& poses = editor.document().poses();
    if (poses.empty()) return -1;
    if (const EntityClass* start = editor.entityClasses().find("info_player_start"))
        if (const int pose = poseForHullBox(poses, entityHullBox(*start, Vec3::Zero())); pose >= 0 && !poses[size_t(pose)].isPoint())
            return pose;
    const std::vector<Pose> game = gamePoses(editor.document().data().game);
    if (game.size() > 1)
        if (const int pose = poseNamed(editor, game[1].name); pose >= 0) return pose; // the game's player pose
    const auto box = std::find_if(poses.begin(), poses.end(), [](const Pose& p) { return !p.isPoint(); });
    return box == poses.end() ? 0 : int(box - poses.begin());
}

} // namespace shallot
