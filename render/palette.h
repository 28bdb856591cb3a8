#pragma once
// Every colour the views give a meaning to, in one place: the overlays, the brushes'
// contents, the entity categories (core's categoryColour), problems and the selection.
// The legends name each once; no two meanings share a colour: every two are at least
// kMinColourDistance apart (tests/app/render_palette_test.cpp). Chosen for a dark
// background, each near the hue it had (green empty, red solid, orange monsters...).
//
// Families of many colours are apart from this rule and named once as a family: the
// walkable areas (componentColour, a colour per connected area), cells coloured by
// their whole bitset (bitsetColour), solid brushes (a muted tint per texture) and the
// view weight ramp (viewWeightColour).
#include <QColor>
#include <QString>
#include <vector>

namespace shallot::render {

// The least CIE 1976 L*a*b* distance (ΔE*ab) between two meanings' colours. One unit is
// about the least difference an eye notices side by side (2.3 is the usual "just
// noticeable" figure); 25 keeps thin lines and the legends' small swatches told apart at a
// glance, on the dark background, by eyes with common colour-vision differences in most
// pairs. The palette below keeps 28 or more.
inline constexpr double kMinColourDistance = 25.0;

// ΔE*ab between two colours (sRGB, D65), alpha ignored.
double colourDistance(const QColor& a, const QColor& b);

// Leaf cells and what fills them.
inline const QColor kEmptyCellColour(25, 240, 150);
inline const QColor kSolidCellColour(215, 15, 65);
inline const QColor kGreyedCellColour(115, 105, 135); // unreachable from the start (fill outside)
inline const QColor kVoidColour(110, 95, 185);        // reachable from outside the world box (sections)
// A round pose's cells between its two boxes (solid for its bounding box, empty for its
// inscribed box): the exact tests decide there (its certain-empty and certain-solid cells
// take kEmptyCellColour and kSolidCellColour).
inline const QColor kDecidedExactlyColour(150, 150, 105);
inline const QColor kReachedColour(35, 145, 255);
// The leaves in the PVS of the eye's leaf (the Visible overlay).
inline const QColor kVisibleColour(255, 0, 150);
// Walkable floors lit under the document's dark limit (the Too dark overlay).
inline const QColor kTooDarkColour(120, 0, 255);
// Places Quake 3's moved planes refuse a capsule that fits (the Quake 3 capsule overlay).
inline const QColor kQuake3RefusedColour(0, 255, 75);
// Where the level's movers go: their swept volumes, stops and paths (View > Mover Paths).
inline const QColor kMoverPathColour(225, 0, 255);
// The volume each mover's brushes pass through, ghosted under the movers drawn at their
// state (the Movers dock's Swept volumes).
inline const QColor kMoverSweptColour(120, 70, 20);
// Lines of the tree overlays.
inline const QColor kPortalColour(145, 220, 255);
inline const QColor kExpandedWorldColour(205, 190, 45);
// The brushes' cuts by a 2D view's plane, over the dimmed outlines (kBrushEdgeColour).
inline const QColor kBrushCutColour(255, 255, 255);
inline const QColor kBrushEdgeColour(175, 175, 180);
// Test rays: the part the pose's box travels freely, the part past its contact (or the
// whole ray when it starts in solid), the contact and its normal, the box at the ends.
inline const QColor kRayClearColour(145, 235, 185);
inline const QColor kRayBlockedColour(230, 100, 145);
inline const QColor kRayContactColour(200, 245, 100);
inline const QColor kPoseBoxColour(175, 180, 245);
// Walking: paths and the links between walkable surfaces.
inline const QColor kNavPathColour(70, 255, 255);
inline const QColor kStepUpColour(165, 255, 35);
inline const QColor kStepDownColour(205, 210, 125);
inline const QColor kDropColour(205, 85, 50);
inline const QColor kJumpColour(250, 80, 225);
// Travel through the level's movers and triggers (movers/travel.h): a closed door's gate,
// a plat's ride, a train's ride, a teleport, a trigger_push's flight, a swim, a water jump
// out of it, a ladder climb (the palette is crowded: these three are the hues left at 25
// apart from every other meaning).
inline const QColor kDoorTravelColour(250, 220, 180);
inline const QColor kPlatTravelColour(0, 175, 130);
inline const QColor kTrainTravelColour(135, 130, 0);
inline const QColor kTeleportTravelColour(255, 210, 250);
inline const QColor kPushTravelColour(95, 155, 65);
inline const QColor kSwimTravelColour(50, 125, 150);
inline const QColor kWaterJumpTravelColour(45, 120, 95);
inline const QColor kLadderTravelColour(160, 105, 100);
// Brushes by contents (render::BrushKind), and Quake 3 patches (drawn, never collided).
inline const QColor kPlayerClipBrushColour(220, 160, 105);
inline const QColor kMonsterClipBrushColour(155, 60, 210);
inline const QColor kNonSolidBrushColour(45, 100, 240);
inline const QColor kPatchColour(15, 170, 170);
// Something wrong: a leak path, no walking path, an entity with a spawn problem and the
// path of its leak.
inline const QColor kProblemColour(240, 15, 25);
// The selection: brushes' edges and entities' boxes.
inline const QColor kSelectionColour(255, 110, 0);
// An edit in progress, drawn by the tools: a box being drawn, brushes being moved or
// resized, the rubber band, the parts a clip keeps. (The Pose tool draws a pose's box in
// kPoseBoxColour.)
inline const QColor kEditPreviewColour(255, 175, 180);

// The View weight overlay: a leaf's view weight as a share of the document's limit, green
// (little) through yellow to red (at the limit), and magenta over it.
inline constexpr int kViewWeightSteps = 6; // colours up to the limit; one more over it
// The step of a weight: 0..kViewWeightSteps-1 under the limit, kViewWeightSteps at or over.
int viewWeightStep(uint32_t weight, uint32_t limit);
QColor viewWeightColour(int step);

// The views' background when the settings name none (Edit > Preferences).
inline const QColor kDefaultBackgroundColour(31, 31, 36);

// An RGBA colour of core (0xrrggbbaa: categoryColour, Pose::colour) as a QColor.
QColor colourOfRgba(uint32_t rgba);

struct PaletteEntry {
    QColor colour;
    QString meaning;
};
// Every meaning above with its colour, the entity categories' colours included, and the
// default background: what the legends may show and the palette test checks.
std::vector<PaletteEntry> paletteEntries();

} // namespace shallot::render
