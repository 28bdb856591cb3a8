#include "io/map_to_world.h"

#include "io/game_contents.h"
#include "world/entity_class.h"

#include <cmath>
#include <optional>
#include <string_view>

namespace shallot {
namespace {

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return s;
}

// "NAME minx miny minz maxx maxy maxz [CONTENTS+CONTENTS...] [shape=capsule:16,56]
// [step=18 drop=any jump=45,128 slope=0.7]". A round pose's box is its shape's bounding box.
std::optional<Pose> parsePose(std::string_view text) {
    const size_t space = text.find(' ');
    if (space == 0 || space == std::string_view::npos) return std::nullopt;
    Pose pose;
    pose.name = std::string(text.substr(0, space));
    std::string_view rest = text.substr(space + 1);
    // Trailing "key=value" fields are its navigation settings (world/nav_settings.h).
    for (size_t last = rest.find_last_of(' '); last != std::string_view::npos; last = rest.find_last_of(' ')) {
        const std::string_view field = rest.substr(last + 1);
        if (field.find('=') == std::string_view::npos) break;
        if (field.starts_with("shape=")) {
            const PoseShapeParse shape = parsePoseShape(field.substr(6));
            if (!shape.shape) return std::nullopt;
            pose.shape = *shape.shape;
        } else if (!applyNavSettingsField(field, pose.nav)) {
            return std::nullopt;
        }
        rest = rest.substr(0, last);
    }
    // A last field that is a contents set is the pose's blocking set.
    if (const size_t last = rest.find_last_of(' '); last != std::string_view::npos) {
        if (const auto blocking = parseContents(rest.substr(last + 1))) {
            pose.blocking = *blocking;
            rest = rest.substr(0, last);
        }
    }
    // Split the six numbers into two triples at the third space-separated field.
    size_t cut = 0;
    for (int fields = 0; fields < 3 && cut != std::string_view::npos; ++fields) {
        cut = rest.find_first_not_of(' ', cut);
        if (cut != std::string_view::npos) cut = rest.find(' ', cut);
    }
    if (cut == std::string_view::npos) return std::nullopt;
    const auto mins = parseEntityVector(rest.substr(0, cut));
    const auto maxs = parseEntityVector(rest.substr(cut + 1));
    if (!mins || !maxs) return std::nullopt;
    pose.mins = *mins;
    pose.maxs = *maxs;
    if (!pose.isValid()) return std::nullopt;
    return pose;
}

std::vector<Pose> posesOf(const MapFile& map, std::vector<std::string>* warnings) {
    std::vector<Pose> poses;
    for (const MapEntity& entity : map.entities) {
        if (lower(entity.classname()) != "worldspawn") continue;
        for (int n = 1; n <= kMaxPoses; ++n) {
            const std::string* value = entity.value(poseKey(n));
            if (!value) break;
            if (auto pose = parsePose(*value)) {
                applyGameBlocking(map.game, *pose);
                poses.push_back(*pose);
            }
            else if (warnings)
                warnings->push_back(map.file + ":" + std::to_string(entity.line) + ": worldspawn key " + poseKey(n) +
                                    " must be \"NAME MINX MINY MINZ MAXX MAXY MAXZ [CONTENTS] [shape=ellipsoid:R,H|capsule:R,HEIGHT] "
                                    "[step=H drop=H jump=H,L slope=Z]\" with mins <= maxs (a shape's bounding box); skipped");
        }
        break;
    }
    return poses;
}

} // namespace

std::vector<bool> detailBrushes(const World& world, const std::vector<MapEntity>& entities, int firstNumber) {
    std::vector<bool> out(world.brushes.size(), false);
    for (size_t b = 0; b < out.size(); ++b) {
        const Brush& brush = world.brushes[b];
        const int at = brush.source.entity - firstNumber;
        const bool ofDetailEntity = brush.source.entity >= firstNumber && size_t(at) < entities.size() &&
                                    entities[size_t(at)].classname().starts_with("func_detail");
        out[b] = ofDetailEntity || intersects(brush.contents, BrushContents::Detail);
    }
    return out;
}

std::string poseKey(int n) { return "_shallot_pose" + std::to_string(n); }

World worldFromMap(const MapFile& map, const MapWorldOptions& options, std::vector<std::string>* warnings) {
    World world;
    world.poses = posesOf(map, warnings);
    if (world.poses.empty()) world.poses = gamePoses(map.game);
    for (const MapEntity& entity : map.entities) {
        if (entity.brushes.empty()) continue;
        const std::string cls = lower(entity.classname());
        const bool detail = cls.starts_with("func_detail");
        const bool structural = cls == "worldspawn" || cls == "func_group";
        if (detail ? !options.includeDetail : !structural && !options.includeOtherEntities) continue;
        // Illusionary brushes are drawn but never collide, whatever their textures say.
        const bool illusionary = illusionaryEntity(map.game, cls);
        for (const Brush& brush : entity.brushes) {
            world.brushes.push_back(brush);
            if (illusionary) world.brushes.back().contents = BrushContents::NonSolid;
        }
    }
    return world;
}

std::vector<PointEntity> pointEntities(const MapFile& map) {
    std::vector<PointEntity> points;
    for (const MapEntity& entity : map.entities) {
        if (!entity.brushes.empty()) continue;
        if (const std::optional<Vec3> v = entity.origin()) points.push_back({entity.classname(), *v, entity.line});
    }
    return points;
}

} // namespace shallot
