#pragma once
// The lights of a level read from its entities' keys as ericw-tools' `light` reads them
// (a superset of id's `light`): every entity whose classname starts with "light" is a
// point light; worldspawn holds minlight, sunlight and the global scales.
#include "io/map_file.h"

#include <string>
#include <vector>

namespace shallot {

// ericw-tools' "delay" key: how a light fades with distance.
enum class LightFormula { Linear = 0, Inverse = 1, InverseSquare = 2, Infinite = 3, LocalMinimum = 4, InverseSquareA = 5 };

// A light entity's defaults (ericw-tools, docs/light.rst; id's light has the same 300 and
// its spotlight cone of 20 degrees either side).
inline constexpr double kDefaultLightLevel = 300.0;
inline constexpr double kDefaultSpotAngle = 40.0; // the cone's full angle, degrees

// |light| above this (or a non-finite one) is refused with a warning: far past anything a
// level uses (ericw's own tests stop at 10^5) and small enough that every product of a
// light value with a distance, a colour and a scale stays finite in doubles.
inline constexpr double kMaxLightValue = 1e9;

struct PointLight {
    Vec3 origin = Vec3::Zero();
    double light = kDefaultLightLevel; // "light" (or "_light"); negative: an antilight
    double wait = 1.0;                 // scales the fade distance ("wait"; <= 0 reads 1)
    LightFormula formula = LightFormula::Linear;
    double falloff = 0.0;              // "_falloff": linear lights reach 0 at this distance
    Vec3 color = Vec3::Constant(255);  // "_color", 0-255 (0-1 read as a fraction of 255)
    double anglescale = 0.5;           // "_anglescale", else worldspawn's
    int style = 0;                     // "style" 0-254; lights with a targetname get 32+
    bool spotlight = false;            // from "target" (an entity's origin) or "mangle"
    Vec3 spotDirection = Vec3::Zero(); // unit, from the light outwards
    double spotOuterCos = 0.0;         // -cos(angle / 2): outside the cone past this
    double spotInnerCos = 0.0;         // -cos(softangle / 2): full strength inside
    int dirt = 0;                      // "_dirt": -1 never, 1 always, 0 as worldspawn's "_dirt"
    double dirtScale = 0.0, dirtGain = 0.0; // "_dirtscale", "_dirtgain" (0: worldspawn's)
    int line = 0;                      // the entity's line in its file, for messages
};

// Sunlight: parallel rays from sky faces.
struct SunLight {
    Vec3 towardSun = Vec3::UnitZ(); // unit
    double light = 0.0;
    Vec3 color = Vec3::Constant(255);
    double anglescale = 0.5;
    bool dirt = false; // darkened by the dirt (ambient occlusion) of the sample
    int style = 0;
};

// ericw-tools' dirtmapping (ambient occlusion, q3map2's): worldspawn "_dirt" 1 darkens
// every light, sunlight and minlight by how much of a cone of rays around the normal
// meets a brush within "_dirtdepth".
struct DirtSettings {
    bool all = false;          // "_dirt" 1: every light unless it says "_dirt" "-1"
    bool minlight = false;     // "_minlight_dirt" (on with "_dirt" 1 unless set)
    double depth = 128.0;      // "_dirtdepth"
    double scale = 1.0;        // "_dirtscale"
    double gain = 1.0;         // "_dirtgain"
    double angle = 88.0;       // "_dirtangle": the cone's half angle, degrees
};

// worldspawn's keys.
struct LightSettings {
    double minlight = 0.0;                   // "light" / "_minlight"
    Vec3 minlightColor = Vec3::Constant(255); // "_minlight_color" / "_mincolor"
    double scaledist = 1.0;                  // "_dist"
    double rangescale = 0.5;                 // "_range"
    double anglescale = 0.5;                 // "_anglescale" / "_anglesense"
    // "_sunlight" with "_sun_mangle", "_sunlight_color"; "_sunlight2" and "_sunlight3" (domes
    // of suns from above and below, "_sunlight2_color", "_sunlight3_color"); light
    // entities with "_sun" 1 (a sun towards their target or "mangle") or "_sunlight2" /
    // "_sunlight3" 1 (a dome).
    std::vector<SunLight> suns;
    DirtSettings dirt;
    bool dirtInUse = false; // some light, sun or the minlight uses the dirt
};

// ericw-tools' sky domes take this many suns ("sunsamples" 64 gives 4 elevations of 16
// directions and one straight along the axis).
inline constexpr int kSkyDomeSamples = 64;

struct LightEntities {
    std::vector<PointLight> lights;
    LightSettings settings;
    std::vector<std::string> warnings; // "file:line: ..." for every key refused or replaced
};

// `file` names the source in warnings.
LightEntities readLightEntities(const std::vector<MapEntity>& entities, const std::string& file);

// ericw-tools' direction from "yaw pitch roll" in degrees (pitch 90 is straight up).
Vec3 directionFromMangle(const Vec3& mangle);

} // namespace shallot
