#pragma once
// The Walkable overlay: a pose's walkable surfaces (core/nav), coloured by connected
// component, and its step and drop links as arrows.
#include "mesh_batch.h"
#include "palette.h"
#include "movers/travel_reach.h"
#include "nav/nav_mesh.h"
#include "nav/nav_path.h"

namespace shallot::render {


// A colour per component (the same component keeps its colour between builds when its
// number does).
QColor componentColour(int32_t component);

// Everything is drawn where the pose's feet are: the navigation mesh lies at the reference
// point's height, `feet` (the pose's mins.z) below it is the floor; kFeetLift above that
// keeps the overlay off the floor's faces.
inline constexpr double kFeetLift = 0.5;

// The walkable polygons, translucent, on the floors.
MeshBatch walkableSurfaces(const NavMesh& mesh, double feet);

// A link is drawn as an arrow of its kind unless one already drawn starts and ends within
// this many units of its own start and end (a ledge's probes are 8 units apart).
inline constexpr double kLinkArrowSpacing = 48.0;

// Step up, step down, drop and jump links as arrows (walk links are the shared edges between
// the surfaces' colours, not drawn), thinned by kLinkArrowSpacing.
MeshBatch walkableLinks(const NavMesh& mesh, double feet);

// The colour of a travel type (movers/travel.h): walk the path's own, step, drop and jump
// as the mesh's links, and a colour each for doors, plats, trains, teleports and pushes.
const QColor& travelColour(TravelKind kind);

// The travel of `pose` beyond walking (movers/travel.h): a closed door's gate as the
// door's box outline, each ride, teleport, push, swim, water jump and ladder as an arrow on
// the floors from where it is boarded to where it arrives, in its type's colour (thinned by
// kLinkArrowSpacing). A swim round corners (TravelLink::via) is drawn as an arrow from its
// floor to its first corner, an arrow from its last corner to the floor it reaches, and its
// route's pieces: the routes through one stretch of water share their pieces, each drawn
// once, either way, after all the arrows (a pool's swims between every pair of its floors
// read as the ways through the water and where each floor goes in and comes out, not as a
// line per pair).
MeshBatch walkableTravel(const TravelGraph& graph, const Pose& pose);

// A path's corners joined, on the floors, each part of its travel (`path.travel`) in its
// type's colour: a door's passage, a ride, a teleport's jump, a step, a drop, a jump.
void addPath(MeshBatch& lines, const TravelPath& path, double feet);

// A walking path placed with the Path tool: a cross at its start and at its goal, and its
// path (`path`, found) or, when none was found, a red line from start to goal; with no
// path known yet (null: the meshes are still being built) the bare segment.
void addPathRay(MeshBatch& lines, const Vec3& from, const Vec3& to, const TravelPath* path, double feet);

} // namespace shallot::render
