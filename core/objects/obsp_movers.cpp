#include "objects/obsp_movers.h"

#include "io/game_profile.h"
#include "io/map_reader.h"
#include "io/map_writer.h"
#include "io/obsp_format.h"
#include "io/payload_bytes.h"
#include "movers/build_movers.h"
#include "movers/travel.h"

#include <cmath>
#include <sstream>

namespace shallot {

namespace {

// A game's name is one of a few short words; more is a forged length.
constexpr uint32_t kMaxGameName = 64;
// Per mover at least: 10 doubles and the tree image's length.
constexpr uint64_t kMoverMinBytes = 10 * 8 + 8;
// The name readMap gives the stored entities in its messages.
constexpr const char* kEntitiesName = "obsp movers";

// Finite, or exactly the empty box a mover with nothing to hit has.
bool boundsOk(const Aabb& b) {
    const Aabb empty;
    return (b.mins.allFinite() && b.maxs.allFinite() && (b.mins.array() <= b.maxs.array()).all()) ||
           (b.mins == empty.mins && b.maxs == empty.maxs);
}

bool samePoses(const std::vector<Pose>& a, const std::vector<Pose>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].name != b[i].name || a[i].mins != b[i].mins || a[i].maxs != b[i].maxs) return false;
    return true;
}

} // namespace

ObspMovers obspMoversOf(const MapFile& map, const std::vector<Pose>& poses, const Aabb& worldBounds, int threads) {
    ObspMovers out;
    out.entities.file = map.file;
    out.entities.game = map.game;
    out.entities.entities = map.entities;
    for (size_t i = 0; i < out.entities.entities.size(); ++i) {
        MapEntity& e = out.entities.entities[i];
        e.patches.clear();
        // Of the world's brushes only the liquids and ladders: travel swims and climbs them
        // (storedTravelLevel); the rest is the file's tree.
        if (i == 0 && e.classname() == "worldspawn")
            std::erase_if(e.brushes, [](const Brush& b) { return !intersects(b.contents, kTravelledContents); });
        for (const Brush& b : e.brushes)
            for (const BrushSide& side : b.sides) out.entities.quake3Brushes |= !side.textureMatrix.empty();
    }
    out.level = buildLevelObjects(buildMovers(out.entities), poses, worldBounds, threads);
    return out;
}

std::string obspMoversPayload(const ObspMovers& movers) {
    PayloadWriter o;
    const std::string game = gameName(movers.entities.game);
    o.u32(uint32_t(game.size()));
    o.bytes(game);
    const std::string text = writeMap(movers.entities);
    o.u64(text.size());
    o.bytes(text);
    o.u32(uint32_t(movers.level.objects.size()));
    for (const CollisionObject& object : movers.level.objects) {
        o.vec(object.bounds.mins);
        o.vec(object.bounds.maxs);
        o.vec(object.centre);
        o.f64(object.radius);
        std::ostringstream image;
        writeObsp(object.tree, image);
        const std::string bytes = image.str();
        o.u64(bytes.size());
        o.bytes(bytes);
    }
    return o.s;
}

std::optional<ObspMovers> readObspMoversPayload(std::string_view payload, const BspTree& tree, std::string& error,
                                                size_t& at) {
    PayloadReader in{payload, "the movers"};
    try {
        const uint32_t gameLength = in.u32();
        if (gameLength > kMaxGameName) throw PayloadMalformed{"game name too long", in.pos - 4};
        const size_t gameAt = in.pos;
        const std::optional<Game> game = parseGame(in.bytes(gameLength));
        if (!game) throw PayloadMalformed{"unknown game", gameAt};
        const uint64_t textLength = in.u64();
        const size_t textAt = in.pos;
        const std::string_view text = in.bytes(textLength);
        MapReadResult read = readMap(text, kEntitiesName, *game);
        if (!read.ok()) throw PayloadMalformed{"the entities do not read: " + read.error.format(), textAt};
        ObspMovers out;
        out.entities = std::move(*read.map);
        out.entities.warnings.clear();
        out.level.movers = buildMovers(out.entities);
        const size_t countAt = in.pos;
        const uint32_t count = in.u32();
        if (count != out.level.movers.movers.size())
            throw PayloadMalformed{std::to_string(count) + " mover trees for " + std::to_string(out.level.movers.movers.size()) +
                                " movers",
                            countAt};
        if (uint64_t(count) * kMoverMinBytes > payload.size() - in.pos)
            throw PayloadMalformed{"mover count larger than the section", countAt};
        out.level.objects.reserve(count);
        for (uint32_t i = 0; i < count; ++i) {
            const size_t moverAt = in.pos;
            const std::string mover = "mover " + std::to_string(i) + ": ";
            CollisionObject object;
            object.bounds.mins = in.vec();
            object.bounds.maxs = in.vec();
            object.centre = in.vec();
            object.radius = in.f64();
            if (!boundsOk(object.bounds) || !object.centre.allFinite() || !(object.radius >= 0.0) ||
                !std::isfinite(object.radius))
                throw PayloadMalformed{mover + "bad bounds or bounding sphere", moverAt};
            const uint64_t imageLength = in.u64();
            const size_t imageAt = in.pos;
            ObspReadResult image = readObspPlainTree(in.bytes(imageLength));
            if (!image.tree) throw PayloadMalformed{mover + "tree: " + image.error, imageAt};
            if (!samePoses(image.tree->poses, tree.poses))
                throw PayloadMalformed{mover + "its tree's poses differ from the world's", imageAt};
            object.tree = std::move(*image.tree);
            object.tree.poses = tree.poses;
            out.level.objects.push_back(std::move(object));
        }
        if (in.pos != payload.size()) throw PayloadMalformed{"unexpected bytes after the movers", in.pos};
        return out;
    } catch (const PayloadMalformed& m) {
        error = m.message;
        at = m.at;
        return std::nullopt;
    }
}

} // namespace shallot
