#pragma once
// The plain data of a Shallot document: everything saved in a .shallot file. Editing
// (commands, undo) lives in the editor; this is what they edit.
#include "io/map_file.h"
#include "world/world.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shallot {

// A test ray the designer placed: re-traced for every pose after each compile.
struct TestRay {
    std::string name;
    Vec3 from = Vec3::Zero();
    Vec3 to = Vec3::Zero();
    bool walk = false; // draw the collide-and-slide path instead of the straight trace
    bool path = false; // a walking path (the Path tool): drawn as the current pose's path
};

struct CameraState {
    Vec3 position = Vec3(-256, -256, 256);
    double yawDegrees = 45.0;    // around +z, 0 looks along +x
    double pitchDegrees = -20.0; // positive looks up

    // The unit vector the camera looks along.
    Vec3 forward() const {
        const double yaw = yawDegrees * M_PI / 180.0, pitch = pitchDegrees * M_PI / 180.0;
        return Vec3(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch));
    }
};

// What the views showed when the document was saved, restored when it opens (view state:
// no undo step). Names, not the editor's enums: a name this build does not know (a newer
// Shallot's overlay) is kept out of the views, not an error.
struct ViewState {
    std::string pose;                        // the pose the overlays show, by name
    std::vector<std::string> overlays;       // those on: "cells", "portals", "union", "reach", "rays", "walkable"
    std::string cells = "empty";             // the cells shown: "empty", "solid", "differs", "all"
    bool cellsByBitset = false;              // cells coloured by their whole bitset, not the pose's solidity
    bool greyUnreachable = false;            // cells the reach start cannot get to greyed
    std::vector<std::string> hiddenEntities; // entity categories hidden (categoryName: "monsters", ...)
    // Where the movers stand (the Movers dock, docs/movers.md): "spawn", "closed",
    // "open", "time" (at moverSeconds of the game's timing) or "out" (left out of the world).
    std::string movers = "spawn";
    double moverSeconds = 0.0;
    bool moverSwept = true;                  // their swept volumes ghosted

    bool operator==(const ViewState&) const = default;
};

// Which entity a brush belongs to (so that a .map export puts it back): every static brush
// (worldspawn's, func_group's, func_detail's: what the compiler reads) is in world.brushes,
// once, and names its entity by Brush::source.entity: 0 is worldspawn, i + 1 is
// entities[i], anything else (-1 for a brush drawn in the editor) is worldspawn. An entity
// whose brushes are in the world keeps its keys but no brushes; other entities (doors,
// triggers: not static) keep their own brushes. See mapFromWorld in io/map_writer.h.
// A level's default view weight limit: on id_e1m1 a few rooms' leaves pass it (docs/visibility.md).
inline constexpr uint32_t kDefaultViewWeightLimit = 1800;
// A walkable floor lit below this (the lightmap byte, 0-255) is too dark to see by: the
// engine draws it all but black (issue 41, the Too dark overlay).
inline constexpr int kDefaultDarkLimit = 16;
// The editor's lit view adds at most this many bounces (View > Light Bounces: None, 1, 2):
// each reflects half of the last, a third adds little and costs as much again.
inline constexpr int kMaxEditorLightBounces = 2;

struct DocumentData {
    World world;                 // static brushes (planes, textures, contents), poses, bounds
    // worldspawn's key/values (besides the brushes) and every other entity of the level
    // (point entities, doors...), kept so a .map round trip loses nothing.
    std::vector<std::pair<std::string, std::string>> worldKeys;
    std::vector<MapEntity> entities;
    std::vector<TestRay> rays;
    // The entity definitions (.fgd) loaded for this level: where from, and the file's text
    // (kept so the document shows the same classes on another machine). Empty: Quake's.
    std::string entityDefinitionsPath;
    std::string entityDefinitions;
    CameraState camera;
    // Where the 2D views cut the level: the top view at its z, the front view at its y, the
    // side view at its x (each view's working depth). Unset until the editor places it (at
    // the player start's eye, see defaultWorkingPoint).
    std::optional<Vec3> workingPoint;
    int gridSize = 16;           // power of two, 1..256
    // The view weight (brush faces in a leaf's PVS) over which a leaf is listed as a
    // problem and coloured over the limit (the View weight overlay).
    uint32_t viewWeightLimit = kDefaultViewWeightLimit;
    // The light level under which a walkable floor is too dark (the Too dark overlay).
    int darkLimit = kDefaultDarkLimit;
    // The bounces of diffuse light the lit view adds to the direct light (0: none).
    int lightBounces = 0;
    // Unset in a document saved before views were kept, and for a level opened from a .map:
    // the editor then shows the game's walking pose with its leaf cells.
    std::optional<ViewState> view;
    // The game the level is for (its contents rules and default poses; .map exports are
    // headed with it), whether its brushes are Quake 3 brushDef, and worldspawn's Quake 3
    // patches, kept verbatim for the export.
    Game game = Game::Quake;
    bool quake3Brushes = false;
    std::vector<std::string> worldPatches;
};

// A document holding a .map's world (see worldFromMap), worldspawn's keys and the other
// entities, brushes numbered as above (the .map's own entity numbers when worldspawn comes
// first, as it always does in Quake maps). Pose-key warnings go to `warnings`.
DocumentData documentFromMap(const MapFile& map, std::vector<std::string>* warnings = nullptr);

// The inverse of documentFromMap, for writeMap: mapFromWorld with the document's game,
// brushDef dialect and worldspawn patches.
MapFile mapFromDocument(const DocumentData& doc);

// Per brush of `world` (the document's or a snapshot of it): a detail brush (core's
// detailBrushes in io/map_to_world.h, for the document's entities, which follow worldspawn).
std::vector<bool> detailBrushes(const World& world, const std::vector<MapEntity>& entities);

// The origin of the first info_player_start with a usable one.
std::optional<Vec3> playerStart(const DocumentData& data);

// Quake's eye is 22 units above a player's origin (the game's view_ofs).
inline constexpr double kQuakeEyeHeight = 22.0;

} // namespace shallot
