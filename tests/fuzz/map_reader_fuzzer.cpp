// libFuzzer target: the Quake .map reader (core/io/map_reader.h) and what a loaded map goes
// through next: the world and its poses, point entities, brush validation, and .map export
// read back by the same reader.
#include "fuzz_support.h"

#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/map_writer.h"
#include "world/brush_geometry.h"

#include <algorithm>

using namespace shallot;

namespace {

// What the writer does to text that .map cannot hold (see map_writer.h).
std::string sanitized(std::string s) {
    for (char& c : s) {
        if (c == '"') c = '\'';
        else if (c == '\n' || c == '\r' || c == '\0') c = ' ';
    }
    return s;
}

void checkRoundTrip(const MapFile& map) {
    const std::string written = writeMap(map);
    const MapReadResult again = readMap(written, "fuzz.map");
    SHALLOT_FUZZ_CHECK(again.ok(), "the written map does not read back: " + again.error.format() + "\n" +
                                       written.substr(0, 2000));
    const MapFile& back = *again.map;
    SHALLOT_FUZZ_CHECK(back.entities.size() == map.entities.size(), "entity count changed");
    for (size_t e = 0; e < map.entities.size(); ++e) {
        const MapEntity& a = map.entities[e];
        const MapEntity& b = back.entities[e];
        SHALLOT_FUZZ_CHECK(a.keys.size() == b.keys.size(), "key count changed");
        for (size_t k = 0; k < a.keys.size(); ++k)
            SHALLOT_FUZZ_CHECK(sanitized(a.keys[k].first) == b.keys[k].first &&
                                   sanitized(a.keys[k].second) == b.keys[k].second,
                               "key changed: " + a.keys[k].first);
        SHALLOT_FUZZ_CHECK(a.brushes.size() == b.brushes.size(), "brush count changed");
        for (size_t i = 0; i < a.brushes.size(); ++i) {
            const Brush& x = a.brushes[i];
            const Brush& y = b.brushes[i];
            SHALLOT_FUZZ_CHECK(x.sides.size() == y.sides.size(), "side count changed");
            SHALLOT_FUZZ_CHECK(x.contents == y.contents, "contents changed");
            for (size_t s = 0; s < x.sides.size(); ++s) {
                SHALLOT_FUZZ_CHECK(x.sides[s].points == y.sides[s].points, "side points changed");
                SHALLOT_FUZZ_CHECK(x.sides[s].plane.normal == y.sides[s].plane.normal &&
                                       x.sides[s].plane.dist == y.sides[s].plane.dist,
                                   "side plane changed");
                // Written bare when it can be, else quoted and sanitized.
                SHALLOT_FUZZ_CHECK(x.sides[s].texture == y.sides[s].texture ||
                                       sanitized(x.sides[s].texture) == y.sides[s].texture,
                                   "texture changed: '" + x.sides[s].texture + "' -> '" + y.sides[s].texture + "'");
                SHALLOT_FUZZ_CHECK(x.sides[s].textureParams == y.sides[s].textureParams, "texture parameters changed");
            }
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const MapReadResult read = readMap(text, "fuzz.map");
    if (!read.ok()) {
        const MapError& e = read.error;
        SHALLOT_FUZZ_CHECK(!e.message.empty(), "an error without a message");
        const int lines = 1 + int(std::count(text.begin(), text.end(), '\n') + std::count(text.begin(), text.end(), '\r'));
        SHALLOT_FUZZ_CHECK(e.line >= 1 && e.line <= lines && e.column >= 1 && size_t(e.column) <= size + 1,
                           "error position outside the text: " + e.format());
        SHALLOT_FUZZ_CHECK(fuzz::startsWith(e.format(), "fuzz.map:" + std::to_string(e.line) + ":"),
                           "error not in file:line:column form: " + e.format());
        return 0;
    }
    const MapFile& map = *read.map;
    std::vector<std::string> warnings;
    const World world = worldFromMap(map, {}, &warnings);
    SHALLOT_FUZZ_CHECK(!world.poses.empty() && world.poses.size() <= size_t(kMaxPoses), "bad pose count");
    for (const Pose& p : world.poses) SHALLOT_FUZZ_CHECK(p.isValid(), "an invalid pose from the map: " + p.name);
    (void)pointEntities(map);
    for (const Brush& b : world.brushes) {
        const BrushGeometryResult g = buildBrushGeometry(b, world.bounds);
        SHALLOT_FUZZ_CHECK(g.geometry.has_value() != !g.error.empty(), "a brush both valid and invalid");
        if (g.geometry)
            for (const Vec3& v : g.geometry->vertices) SHALLOT_FUZZ_CHECK(v.allFinite(), "non-finite brush vertex");
    }
    checkRoundTrip(map);
    return 0;
}
