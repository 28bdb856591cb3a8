#include "objects/obsp_movers.h"

#include "io/game_profile.h"
#include "io/map_reader.h"
#include "io/map_writer.h"
#include "io/obsp_format.h"
#include "movers/build_movers.h"

#include <bit>
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

struct Out {
    std::string s;
    void u32(uint32_t v) { put(v, 4); }
    void u64(uint64_t v) { put(v, 8); }
    void f64(double v) { u64(std::bit_cast<uint64_t>(v)); }
    void vec(const Vec3& v) {
        f64(v.x());
        f64(v.y());
        f64(v.z());
    }
    void bytes(std::string_view b) { s.append(b.data(), b.size()); }

private:
    void put(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) s.push_back(char((v >> (8 * i)) & 0xff));
    }
};

struct Malformed {
    std::string message;
    size_t at;
};

struct In {
    std::string_view b;
    size_t pos = 0;
    void need(uint64_t n) const {
        if (uint64_t(b.size() - pos) < n) throw Malformed{"unexpected end of the movers", pos};
    }
    uint64_t get(int n) {
        need(uint64_t(n));
        uint64_t v = 0;
        for (int i = 0; i < n; ++i) v |= uint64_t(uint8_t(b[pos + size_t(i)])) << (8 * i);
        pos += size_t(n);
        return v;
    }
    uint32_t u32() { return uint32_t(get(4)); }
    uint64_t u64() { return get(8); }
    double f64() { return std::bit_cast<double>(get(8)); }
    Vec3 vec() {
        const double x = f64(), y = f64(), z = f64();
        return {x, y, z};
    }
    std::string_view bytes(uint64_t n) {
        need(n);
        const std::string_view v = b.substr(pos, size_t(n));
        pos += size_t(n);
        return v;
    }
};

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
        if (i == 0 && e.classname() == "worldspawn") e.brushes.clear();
        for (const Brush& b : e.brushes)
            for (const BrushSide& side : b.sides) out.entities.quake3Brushes |= !side.textureMatrix.empty();
    }
    out.level = buildLevelObjects(buildMovers(out.entities), poses, worldBounds, threads);
    return out;
}

std::string obspMoversPayload(const ObspMovers& movers) {
    Out o;
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
    In in{payload};
    try {
        const uint32_t gameLength = in.u32();
        if (gameLength > kMaxGameName) throw Malformed{"game name too long", in.pos - 4};
        const size_t gameAt = in.pos;
        const std::optional<Game> game = parseGame(in.bytes(gameLength));
        if (!game) throw Malformed{"unknown game", gameAt};
        const uint64_t textLength = in.u64();
        const size_t textAt = in.pos;
        const std::string_view text = in.bytes(textLength);
        MapReadResult read = readMap(text, kEntitiesName, *game);
        if (!read.ok()) throw Malformed{"the entities do not read: " + read.error.format(), textAt};
        ObspMovers out;
        out.entities = std::move(*read.map);
        out.entities.warnings.clear();
        out.level.movers = buildMovers(out.entities);
        const size_t countAt = in.pos;
        const uint32_t count = in.u32();
        if (count != out.level.movers.movers.size())
            throw Malformed{std::to_string(count) + " mover trees for " + std::to_string(out.level.movers.movers.size()) +
                                " movers",
                            countAt};
        if (uint64_t(count) * kMoverMinBytes > payload.size() - in.pos)
            throw Malformed{"mover count larger than the section", countAt};
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
                throw Malformed{mover + "bad bounds or bounding sphere", moverAt};
            const uint64_t imageLength = in.u64();
            const size_t imageAt = in.pos;
            ObspReadResult image = readObspPlainTree(in.bytes(imageLength));
            if (!image.tree) throw Malformed{mover + "tree: " + image.error, imageAt};
            if (!samePoses(image.tree->poses, tree.poses))
                throw Malformed{mover + "its tree's poses differ from the world's", imageAt};
            object.tree = std::move(*image.tree);
            object.tree.poses = tree.poses;
            out.level.objects.push_back(std::move(object));
        }
        if (in.pos != payload.size()) throw Malformed{"unexpected bytes after the movers", in.pos};
        return out;
    } catch (const Malformed& m) {
        error = m.message;
        at = m.at;
        return std::nullopt;
    }
}

} // namespace shallot
