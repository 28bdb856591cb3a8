#include "io/map_writer.h"

#include "io/game_contents.h"
#include "io/map_to_world.h"
#include "world/brush_geometry.h"
#include "world/map_points.h"
#include "world/number_text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace shallot {

namespace {

// Half-size of the square on a side's plane that gives its points when the brush has no
// face there (a redundant side, an invalid brush).
constexpr double kFallbackWindingExtent = 64.0;

// What .map cannot hold inside a quoted string or on one line.
std::string sanitized(std::string_view text) {
    std::string s(text);
    for (char& c : s) {
        if (c == '"') c = '\'';
        else if (c == '\n' || c == '\r' || c == '\0') c = ' ';
    }
    return s;
}

void appendQuoted(std::string& out, std::string_view text) {
    out += '"';
    out += sanitized(text);
    out += '"';
}

void appendTexture(std::string& out, const std::string& name) {
    if (name.empty()) {
        out += kDefaultMapTexture;
        return;
    }
    // The reader takes a bare name up to the next space, unless it starts like structure
    // or like a comment ("//").
    const bool needsQuotes = std::string_view("()[]}\"").find(name[0]) != std::string_view::npos ||
                             name.starts_with("//") ||
                             std::any_of(name.begin(), name.end(), [](char c) { return (unsigned char)c <= ' '; });
    if (needsQuotes) appendQuoted(out, name);
    else out += name;
}

using Triple = std::array<Vec3, 3>;

// The three points a side is written with (see writeMap): its own when they give its plane,
// else facePoints of its face (of a square on its plane when the brush has no face there).
Triple sidePoints(const BrushSide& side, const Polygon* face) {
    if (hasValidPoints(side)) return side.points;
    return facePoints(side.plane, face && !face->empty() ? *face : baseWinding(side.plane, kFallbackWindingExtent));
}

// Quake 3 brushDef defaults for a side made in the editor: texture scale 1/32, no shift.
constexpr const char* kDefaultBrushDefMatrix = "( ( 0.03125 0 0 ) ( 0 0.03125 0 ) )";
constexpr const char* kDefaultSurfaceFields = "0 0 0";

void appendPoints(std::string& out, const Triple& points) {
    for (const Vec3& p : points) {
        out += "( ";
        for (int axis = 0; axis < 3; ++axis) {
            appendNumber(out, p[axis]);
            out += ' ';
        }
        out += ") ";
    }
}

void appendBrush(std::string& out, const Brush& brush, bool valve220, bool brushDef) {
    // Faces of the brush, by side index, for sides that must be given points.
    std::vector<const Polygon*> faces(brush.sides.size(), nullptr);
    std::optional<BrushGeometry> geometry;
    if (std::any_of(brush.sides.begin(), brush.sides.end(), [](const BrushSide& s) { return !s.hasPoints; })) {
        geometry = buildBrushGeometry(brush, defaultWorldBounds()).geometry;
        if (geometry)
            for (const ConvexFace& f : geometry->hull.faces) faces[size_t(f.tag)] = &f.polygon;
    }
    out += brushDef ? "{\nbrushDef\n{\n" : "{\n";
    for (size_t i = 0; i < brush.sides.size(); ++i) {
        const BrushSide& side = brush.sides[i];
        appendPoints(out, sidePoints(side, faces[i]));
        if (brushDef) {
            out += side.textureMatrix.empty() ? kDefaultBrushDefMatrix : sanitized(side.textureMatrix);
            out += ' ';
        }
        appendTexture(out, side.texture);
        out += ' ';
        if (!side.textureParams.empty()) out += sanitized(side.textureParams);
        else if (brushDef) out += kDefaultSurfaceFields;
        else out += valve220 ? kDefaultValveTextureParams : kDefaultStandardTextureParams;
        out += '\n';
    }
    out += brushDef ? "}\n}\n" : "}\n";
}

// TrenchBroom's "// Format:" names for the dialect written.
const char* formatTitle(const MapFile& map) {
    if (map.quake3Brushes) return "Quake3";
    switch (map.game) {
    case Game::Quake2: return map.valve220 ? "Quake2 (Valve)" : "Quake2";
    case Game::Quake3: return map.valve220 ? "Quake3 (Valve)" : "Quake3 (legacy)";
    case Game::Quake:
    case Game::HalfLife: break;
    }
    return map.valve220 ? "Valve" : "Standard";
}

bool isPoseKey(const std::string& key) {
    constexpr std::string_view prefix = "_shallot_pose";
    return key.size() > prefix.size() && key.starts_with(prefix) &&
           std::all_of(key.begin() + prefix.size(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool isClassnameKey(const std::pair<std::string, std::string>& kv) { return kv.first == "classname"; }

// The poses worldFromMap reads from these worldspawn keys.
std::vector<Pose> posesOfKeys(const MapKeyValues& keys, Game game) {
    MapFile map;
    map.game = game;
    map.entities.push_back({keys, {}, 0});
    map.entities[0].keys.emplace_back("classname", "worldspawn");
    return worldFromMap(map).poses;
}

// "NAME MINX MINY MINZ MAXX MAXY MAXZ [CONTENTS] [shape=...] [nav fields]"; the name cannot hold spaces.
std::string poseValue(const Pose& pose) {
    std::string s = pose.name;
    std::replace_if(s.begin(), s.end(), [](char c) { return (unsigned char)c <= ' '; }, '_');
    for (const Vec3* v : {&pose.mins, &pose.maxs})
        for (int axis = 0; axis < 3; ++axis) {
            s += ' ';
            appendNumber(s, (*v)[axis]);
        }
    if (pose.blocking) s += ' ' + contentsName(*pose.blocking);
    if (pose.shape.isRound()) s += " shape=" + poseShapeText(pose.shape);
    if (const std::string nav = navSettingsFields(pose.nav); !nav.empty()) s += ' ' + nav;
    return s;
}

MapKeyValues withPoseKeys(const MapKeyValues& keys, const std::vector<Pose>& poses, Game game) {
    if (samePosesAndWalking(posesOfKeys(keys, game), poses)) return keys; // the keys say both
    MapKeyValues out;
    size_t insertAt = std::string::npos;
    for (const auto& kv : keys) {
        if (!isPoseKey(kv.first)) out.push_back(kv);
        else if (insertAt == std::string::npos) insertAt = out.size();
    }
    if (samePosesAndWalking(poses, gamePoses(game))) return out;
    MapKeyValues poseKeys;
    for (size_t i = 0; i < poses.size(); ++i) poseKeys.emplace_back(poseKey(int(i) + 1), poseValue(poses[i]));
    out.insert(out.begin() + std::ptrdiff_t(std::min(insertAt, out.size())), poseKeys.begin(), poseKeys.end());
    return out;
}

// The end of the texture parameters before Quake 2's fields: after "[ ] [ ] rot sx sy"
// (Valve 220) or "xoff yoff rot sx sy"; 0 for brushDef (its matrix comes before the name).
size_t baseParamsEnd(std::string_view params, bool brushDef) {
    if (brushDef) return 0;
    size_t pos = 0;
    const auto skipSpace = [&] {
        while (pos < params.size() && (unsigned char)params[pos] <= ' ') ++pos;
    };
    const auto skipToken = [&] {
        skipSpace();
        while (pos < params.size() && (unsigned char)params[pos] > ' ' && params[pos] != '[' && params[pos] != ']') ++pos;
    };
    skipSpace();
    int numbers = 5;
    if (pos < params.size() && params[pos] == '[') {
        for (int bracket = 0; bracket < 2; ++bracket) {
            pos = params.find(']', pos);
            if (pos == std::string_view::npos) return params.size();
            ++pos;
        }
        numbers = 3;
    }
    for (int i = 0; i < numbers; ++i) skipToken();
    return pos;
}

// `params` with its CONTENTS FLAGS VALUE (added when absent, replacing what follows the
// texture parameters) set to `fields`; empty params get the dialect's defaults first.
std::string withSurfaceFields(const std::string& params, const BrushSide::SurfaceFlags& fields, bool valve220, bool brushDef) {
    std::string out = params;
    if (out.empty()) out = brushDef ? "" : valve220 ? kDefaultValveTextureParams : kDefaultStandardTextureParams;
    const size_t end = baseParamsEnd(out, brushDef);
    size_t fieldsAt = end;
    while (fieldsAt < out.size() && (unsigned char)out[fieldsAt] <= ' ') ++fieldsAt;
    if (fieldsAt == out.size()) fieldsAt = end; // no fields yet: after the parameters
    out.resize(fieldsAt);
    if (!out.empty() && (unsigned char)out.back() > ' ') out += ' ';
    out += std::to_string(fields.contents) + ' ' + std::to_string(fields.flags) + ' ' + std::to_string(fields.value);
    return out;
}

bool hasValveSides(const std::vector<Brush>& brushes) {
    return std::any_of(brushes.begin(), brushes.end(), [](const Brush& b) {
        return std::any_of(b.sides.begin(), b.sides.end(),
                           [](const BrushSide& s) { return s.textureParams.starts_with('['); });
    });
}

} // namespace

std::string writeMap(const MapFile& map) {
    std::string out;
    out += "// Game: ";
    out += gameTitle(map.game);
    out += "\n// Format: ";
    out += formatTitle(map);
    out += '\n';
    for (size_t e = 0; e < map.entities.size(); ++e) {
        const MapEntity& entity = map.entities[e];
        out += "// entity " + std::to_string(e) + "\n{\n";
        for (const auto& [key, value] : entity.keys) {
            appendQuoted(out, key);
            out += ' ';
            appendQuoted(out, value);
            out += '\n';
        }
        for (size_t b = 0; b < entity.brushes.size(); ++b) {
            out += "// brush " + std::to_string(b) + "\n";
            appendBrush(out, entity.brushes[b], map.valve220, map.quake3Brushes);
        }
        for (const std::string& patch : entity.patches) out += patch + "\n";
        out += "}\n";
    }
    return out;
}

MapFile mapFromWorld(const World& world, const MapKeyValues& worldKeys, const std::vector<MapEntity>& entities,
                     Game game, bool quake3Brushes) {
    MapFile map;
    map.game = game;
    map.quake3Brushes = quake3Brushes;
    MapKeyValues keys = withPoseKeys(worldKeys, world.poses, game);
    if (std::none_of(keys.begin(), keys.end(), isClassnameKey)) keys.insert(keys.begin(), {"classname", "worldspawn"});
    map.entities.push_back({std::move(keys), {}, 0});
    for (const MapEntity& e : entities) map.entities.push_back({e.keys, {}, e.line, e.patches});

    // World brushes whose contents their sides do not say get sides that do (Quake 2's
    // fields are written into textureParams below, once the dialect is known).
    std::vector<std::pair<size_t, size_t>> newFields;
    for (const Brush& brush : world.brushes) {
        const int owner = brush.source.entity;
        const bool ownedByEntity = owner >= 1 && size_t(owner) <= entities.size();
        const size_t e = ownedByEntity ? size_t(owner) : 0;
        std::vector<Brush>& into = map.entities[e].brushes;
        into.push_back(brush);
        // An illusionary entity's brushes read as nonsolid whatever their sides say.
        const std::string classname = e == 0 ? "worldspawn" : entities[e - 1].classname();
        if (!illusionaryEntity(game, classname) && setSidesToContents(game, into.back()) && game == Game::Quake2)
            newFields.emplace_back(e, into.size() - 1);
    }
    for (size_t i = 0; i < entities.size(); ++i) {
        std::vector<Brush>& into = map.entities[i + 1].brushes;
        into.insert(into.end(), entities[i].brushes.begin(), entities[i].brushes.end());
    }

    const std::string* version = map.entities[0].value("mapversion");
    map.valve220 = (version && *version == "220") ||
                   std::any_of(map.entities.begin(), map.entities.end(),
                               [](const MapEntity& e) { return hasValveSides(e.brushes); });
    for (const auto& [e, b] : newFields)
        for (BrushSide& side : map.entities[e].brushes[b].sides)
            side.textureParams = withSurfaceFields(side.textureParams, *side.surface, map.valve220, quake3Brushes);
    return map;
}

} // namespace shallot
