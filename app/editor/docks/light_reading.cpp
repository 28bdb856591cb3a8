#include "docks/light_reading.h"

#include "check/mover_checks.h"
#include "document/editor_document.h"
#include "light/light_at_point.h"
#include "light/sky_faces.h"
#include "light/tree_occluder.h"
#include "services/light_service.h"

namespace shallot {

namespace {
// The strongest lights listed; the rest are counted.
constexpr size_t kListedLights = 6;
} // namespace

QString lightReadingText(const LightService& lighting, const EditorDocument& document, const Vec3& point) {
    const LightingResult& latest = lighting.latest();
    if (!latest.lighting || !latest.world) return {};
    const std::optional<LightReading> reading = lightAtSurface(*latest.lighting, point);
    if (!reading) return "Light: the point is on no lit face (inspect a surface in the 3D view)";
    QString text = QString("Light %1 (colour %2 %3 %4)")
                       .arg(reading->light, 0, 'f', 0)
                       .arg(reading->color.x(), 0, 'f', 0)
                       .arg(reading->color.y(), 0, 'f', 0)
                       .arg(reading->color.z(), 0, 'f', 0);
    const World& world = latest.world->world;
    const int pose = pointPoseIndex(world.poses);
    if (pose < 0) return text;
    const DocumentData& data = document.data();
    const LightEntities sources = readLightEntities(mapOfDocumentEntities(data.entities, data.game, data.worldKeys).entities,
                                                    document.filePath().toStdString());
    const SkyFaces sky(world.brushes, world.bounds);
    const TreeOccluder occluder(latest.world->result->onion, pose, sky);
    const Vec3 normal = latest.lighting->faces[size_t(reading->face)].plane.normal;
    const std::vector<LightSourceAt> reaching = lightsReaching(sources.lights, sources.settings, point, normal, occluder);
    if (reaching.empty()) return text + "\n  no light reaches it" + (sources.settings.minlight > 0 ? " (minlight only)" : "");
    for (size_t i = 0; i < reaching.size() && i < kListedLights; ++i) {
        const LightSourceAt& r = reaching[i];
        if (r.sun >= 0) {
            text += QString("\n  sun %1: %2%3").arg(r.sun).arg(r.value >= 0 ? "+" : "").arg(r.value, 0, 'f', 1);
            continue;
        }
        const PointLight& l = sources.lights[size_t(r.light)];
        text += QString("\n  light at %1 %2 %3 (line %4): %5%6")
                    .arg(l.origin.x()).arg(l.origin.y()).arg(l.origin.z())
                    .arg(l.line)
                    .arg(r.value >= 0 ? "+" : "")
                    .arg(r.value, 0, 'f', 1);
    }
    if (reaching.size() > kListedLights) text += QString("\n  and %1 more").arg(reaching.size() - kListedLights);
    return text;
}

} // namespace shallot
