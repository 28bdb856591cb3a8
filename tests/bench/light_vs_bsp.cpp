// Shallot's light against the lightmaps of a Quake .bsp (issue 41's "The same light as the
// Quake tools"; docs/lighting_vs_quake.md). Not a test: it samples and compares things.
//
//   light_vs_bsp REF.bsp [--map MAP [--cli PATH] | --answers FILE] [--other OTHER.bsp]
//                [--points N] [--seed S] [--examples K] [--write-queries FILE]
//
// N random points (default 10,000), uniform by area over REF's lit world faces (not sky or
// liquid, with a style-0 lightmap; io/quake_bsp_lightmap), each with its face's normal. At
// each, the value the engine reads from REF (bilinear over the face's luxels, 0-255) against:
//  - Shallot: the answers of `shallot-cli query MAP` to {"op":"light","p":..,"normal":..}
//    lines (run here with --map, the CLI at --cli, default build/app/shallot-cli; or read from
//    --answers, one answer line per query line, in order; --write-queries writes the queries);
//  - another .bsp of the same faces (--other: ericw's light against id's, or a level against
//    itself as a sanity check), read at the same points the same way.
// Reported per comparison: the share of points within 2, 8 (the target), 16 and 32
// of 255, the mean and mean absolute difference, a histogram of the signed differences, and
// where the differences over 8 are: by reference level, near a shadow edge (the reference's
// luxels around the point span kShadowEdgeContrast or more), near the face's border (within
// one luxel spacing), by texture (from MAP's brush faces when --map is given; the .bsp's
// texture name or texinfo otherwise) and by face. --examples K prints the K largest
// differences, one JSON line each, to look at.
#include "io/map_reader.h"
#include "io/quake_bsp_lightmap.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unistd.h>
#include <vector>

using namespace shallot;

namespace {

// The tolerance: values within this many of 255 agree.
constexpr double kAgreeWithin = 8.0;
// Luxels around a point whose values span this much (of 255) or more: the point is near a
// shadow edge or another sharp change the 16-unit grid resolves only roughly.
constexpr int kShadowEdgeContrast = 48;
// A point within this distance of its face's border: its luxels' sample points may have
// been moved onto the face (id's light) or its light reach around the border.
constexpr double kNearBorder = 16.0;
// Signed difference histogram bins (candidate - reference), upper edges.
constexpr double kHistogramEdges[] = {-64, -32, -16, -8, -2, 2, 8, 16, 32, 64};
// Reference levels for the per-level shares, upper edges.
constexpr double kLevelEdges[] = {16, 48, 96, 160, 256};
// Faces and textures listed where the large differences are.
constexpr size_t kTopListed = 12;

struct Options {
    std::string reference, map, cli = "build/app/shallot-cli", answers, other, writeQueries;
    size_t points = 10000;
    uint64_t seed = 41;
    size_t examples = 0;
};

struct Point {
    QuakeSurfacePoint at;
    double reference = 0.0;
    int contrast = 0;       // max - min of the reference's luxels around it
    double depth = 0.0;     // inside its face's polygon
    std::string texture;
    bool covered = false;   // behind another brush (MapTextures)
};

// The value another source gives at each point; nullopt where it gives none (an error).
using Values = std::vector<std::optional<double>>;

bool parseArgs(int argc, char** argv, Options& o) {
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&](std::string& out) {
            if (i + 1 >= argc) return false;
            out = argv[++i];
            return true;
        };
        std::string value;
        if (a == "--map" && next(o.map)) continue;
        if (a == "--cli" && next(o.cli)) continue;
        if (a == "--answers" && next(o.answers)) continue;
        if (a == "--other" && next(o.other)) continue;
        if (a == "--write-queries" && next(o.writeQueries)) continue;
        if (a == "--points" && next(value)) {
            o.points = std::stoul(value);
            continue;
        }
        if (a == "--seed" && next(value)) {
            o.seed = std::stoull(value);
            continue;
        }
        if (a == "--examples" && next(value)) {
            o.examples = std::stoul(value);
            continue;
        }
        if (a.starts_with("--")) return false;
        positional.push_back(a);
    }
    if (positional.size() != 1) return false;
    o.reference = positional[0];
    return true;
}

// The texture of the .map brush side a point lies on: a side of a world brush (worldspawn,
// func_group, func_detail*) whose plane holds the point within the face tolerance, facing
// the point's normal, of a brush that holds the point. Labelled with its entity's class when
// that is not worldspawn, and "covered" when the point's front is inside another solid brush
// (a face no player sees, which compilers keep behind func_detail_wall).
class MapTextures {
public:
    explicit MapTextures(const MapFile& map) {
        for (const MapEntity& e : map.entities) {
            const std::string c = e.classname();
            if (c == "worldspawn" || c == "func_group" || c.starts_with("func_detail"))
                for (const Brush& b : e.brushes) brushes_.push_back({&b, c == "func_group" ? "worldspawn" : c});
        }
    }
    // The label, and whether the point is covered.
    std::pair<std::string, bool> at(const Vec3& p, const Vec3& normal) const {
        std::string label = "?";
        for (const auto& [b, classname] : brushes_) {
            const BrushSide* on = nullptr;
            bool inside = true;
            for (const BrushSide& s : b->sides) {
                const double d = s.plane.signedDistance(p);
                if (d > kQuakeFacePlaneTolerance) {
                    inside = false;
                    break;
                }
                if (std::abs(d) <= kQuakeFacePlaneTolerance && s.plane.normal.dot(normal) >= kQuakeFaceNormalMinCos)
                    on = &s;
            }
            if (inside && on) {
                label = on->texture + (classname == "worldspawn" ? "" : " (" + classname + ")");
                break;
            }
        }
        const Vec3 front = p + kCoverProbe * normal;
        for (const auto& [b, classname] : brushes_) {
            if (classname == "func_detail_illusionary" || !intersects(b->contents, BrushContents::Solid)) continue;
            bool inside = true;
            for (const BrushSide& s : b->sides)
                if (s.plane.signedDistance(front) >= 0.0) {
                    inside = false;
                    break;
                }
            if (inside) return {label + " covered", true};
        }
        return {label, false};
    }

private:
    // How far in front of the face a covering brush is looked for.
    static constexpr double kCoverProbe = 0.5;
    std::vector<std::pair<const Brush*, std::string>> brushes_;
};

std::string bspTexture(const QuakeBspLightmaps& bsp, int32_t face) {
    const std::string& name = bsp.textureName(bsp.faces[size_t(face)]);
    return name.empty() ? "texinfo " + std::to_string(bsp.faces[size_t(face)].texinfo) : name;
}

// The reference's luxels around p: the 2x2 it blends and their neighbours.
int contrastAround(const QuakeBspLightmaps& bsp, int32_t face, const Vec3& p) {
    const auto [u, v] = bsp.luxelCoordinates(face, p);
    int lo = 255, hi = 0;
    for (int j = int(v) - 1; j <= int(v) + 2; ++j)
        for (int i = int(u) - 1; i <= int(u) + 2; ++i) {
            const int value = bsp.luxel(face, i, j);
            lo = std::min(lo, value);
            hi = std::max(hi, value);
        }
    return hi - lo;
}

std::string queryLine(const QuakeSurfacePoint& p) {
    char line[256];
    std::snprintf(line, sizeof line, "{\"op\":\"light\",\"p\":[%.17g,%.17g,%.17g],\"normal\":[%.17g,%.17g,%.17g]}",
                  p.position.x(), p.position.y(), p.position.z(), p.normal.x(), p.normal.y(), p.normal.z());
    return line;
}

// The "light" of each answer line; a line with "error" (or none) gives nullopt.
std::optional<Values> readAnswers(const std::string& path, size_t expected, std::string* firstError) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    Values values;
    std::string line;
    while (values.size() < expected && std::getline(in, line)) {
        const QJsonObject answer = QJsonDocument::fromJson(QByteArray::fromStdString(line)).object();
        if (answer.contains("light") && answer.value("light").isDouble()) {
            values.push_back(answer.value("light").toDouble());
            continue;
        }
        if (firstError->empty()) *firstError = line;
        values.push_back(std::nullopt);
    }
    if (values.size() != expected) return std::nullopt;
    return values;
}

std::optional<Values> runShallot(const Options& o, const std::vector<Point>& points, std::string* firstError) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    const std::string stem = "light_vs_bsp_" + std::to_string(getpid());
    const std::string queries = o.writeQueries.empty() ? (dir / (stem + "_queries.jsonl")).string() : o.writeQueries;
    const std::string answers = (dir / (stem + "_answers.jsonl")).string();
    {
        std::ofstream out(queries);
        for (const Point& p : points) out << queryLine(p.at) << '\n';
    }
    const std::string command = "'" + o.cli + "' query '" + o.map + "' < '" + queries + "' > '" + answers + "'";
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(command.c_str());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("shallot: %s (exit status %d, %.2f s for %zu queries, lighting included)\n", command.c_str(), status,
                seconds, points.size());
    std::optional<Values> values = readAnswers(answers, points.size(), firstError);
    std::filesystem::remove(answers);
    if (o.writeQueries.empty()) std::filesystem::remove(queries);
    return values;
}

Values sampleOther(const QuakeBspLightmaps& other, const std::vector<Point>& points) {
    Values values;
    for (const Point& p : points) {
        const std::optional<QuakeLightSample> s = other.sampleAt(p.at.position, p.at.normal);
        values.push_back(s ? std::optional<double>(s->light) : std::nullopt);
    }
    return values;
}

double percent(size_t part, size_t whole) { return whole ? 100.0 * double(part) / double(whole) : 0.0; }

// One row of "share within 8" for a subset of points.
struct Tally {
    size_t points = 0, agree = 0;
    double sumDiff = 0.0;
    void add(double diff) {
        ++points;
        agree += std::abs(diff) <= kAgreeWithin;
        sumDiff += diff;
    }
};

void report(const std::string& name, const std::vector<Point>& points, const Values& values, const Options& o) {
    std::printf("\n## %s against the reference\n", name.c_str());
    size_t missing = 0;
    std::vector<size_t> compared;
    for (size_t i = 0; i < points.size(); ++i) {
        if (values[i]) compared.push_back(i);
        else ++missing;
    }
    const size_t n = compared.size();
    std::printf("points: %zu, answered: %zu, no value (point on no face): %zu\n", points.size(), n, missing);
    if (missing > 0) {
        std::map<std::string, size_t> byTexture;
        for (size_t i = 0; i < points.size(); ++i)
            if (!values[i]) ++byTexture[points[i].texture];
        std::vector<std::pair<size_t, std::string>> list;
        for (const auto& [t, count] : byTexture) list.push_back({count, t});
        std::stable_sort(list.begin(), list.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
        std::printf("points without a value, by texture:");
        for (size_t k = 0; k < std::min(list.size(), kTopListed); ++k)
            std::printf(" %s %zu%s", list[k].second.c_str(), list[k].first, k + 1 < list.size() ? "," : "");
        std::printf("\n");
        for (size_t i = 0, shown = 0; i < points.size() && shown < o.examples; ++i)
            if (!values[i]) {
                const Point& p = points[i];
                std::printf("{\"no_value\":true,\"p\":[%.2f,%.2f,%.2f],\"normal\":[%.3f,%.3f,%.3f],\"face\":%d,"
                            "\"texture\":\"%s\",\"reference\":%.1f}\n",
                            p.at.position.x(), p.at.position.y(), p.at.position.z(), p.at.normal.x(), p.at.normal.y(),
                            p.at.normal.z(), p.at.face, p.texture.c_str(), p.reference);
                ++shown;
            }
    }
    if (n == 0) return;
    size_t within[4] = {};
    const double limits[4] = {2, kAgreeWithin, 16, 32};
    double sum = 0, sumAbs = 0;
    std::vector<size_t> histogram(std::size(kHistogramEdges) + 1, 0);
    Tally all, edge, border, interior;
    std::vector<Tally> levels(std::size(kLevelEdges));
    std::map<std::string, Tally> textures;
    std::map<int32_t, Tally> faces;
    for (size_t i : compared) {
        const Point& p = points[i];
        const double diff = *values[i] - p.reference;
        for (int k = 0; k < 4; ++k) within[k] += std::abs(diff) <= limits[k];
        sum += diff;
        sumAbs += std::abs(diff);
        size_t bin = 0;
        while (bin < std::size(kHistogramEdges) && diff > kHistogramEdges[bin]) ++bin;
        ++histogram[bin];
        all.add(diff);
        (p.contrast >= kShadowEdgeContrast ? edge : interior).add(diff);
        if (p.depth < kNearBorder) border.add(diff);
        size_t level = 0;
        while (level + 1 < levels.size() && p.reference >= kLevelEdges[level]) ++level;
        levels[level].add(diff);
        textures[p.texture].add(diff);
        faces[p.at.face].add(diff);
    }
    std::printf("within 8 of all %zu points (a point without a value counts as a miss): %.1f%%\n", points.size(),
                percent(within[1], points.size()));
    size_t uncovered = 0, uncoveredWithin = 0;
    for (size_t i = 0; i < points.size(); ++i)
        if (!points[i].covered) {
            ++uncovered;
            uncoveredWithin += values[i] && std::abs(*values[i] - points[i].reference) <= kAgreeWithin;
        }
    if (uncovered < points.size())
        std::printf("within 8 of the %zu points not covered by another brush (faces a player sees): %.1f%%\n", uncovered,
                    percent(uncoveredWithin, uncovered));
    std::printf("of the answered: within 2: %.1f%%  within 8: %.1f%%  within 16: %.1f%%  within 32: %.1f%%\n",
                percent(within[0], n), percent(within[1], n), percent(within[2], n), percent(within[3], n));
    std::printf("mean difference (candidate - reference): %+.2f, mean absolute: %.2f\n", sum / double(n),
                sumAbs / double(n));
    std::printf("histogram of differences:\n");
    for (size_t b = 0; b < histogram.size(); ++b) {
        char range[64];
        if (b == 0) std::snprintf(range, sizeof range, "<= %g", kHistogramEdges[0]);
        else if (b == histogram.size() - 1) std::snprintf(range, sizeof range, "> %g", kHistogramEdges[b - 1]);
        else std::snprintf(range, sizeof range, "(%g, %g]", kHistogramEdges[b - 1], kHistogramEdges[b]);
        std::printf("  %-12s %6zu  %5.1f%%\n", range, histogram[b], percent(histogram[b], n));
    }
    auto row = [&](const char* what, const Tally& t) {
        std::printf("  %-44s %6zu points (%5.1f%%), within 8: %5.1f%%, mean difference %+.1f\n", what, t.points,
                    percent(t.points, n), percent(t.agree, t.points), t.points ? t.sumDiff / double(t.points) : 0.0);
    };
    std::printf("where they differ:\n");
    char label[96];
    std::snprintf(label, sizeof label, "near a shadow edge (luxels span >= %d)", kShadowEdgeContrast);
    row(label, edge);
    row("away from shadow edges", interior);
    std::snprintf(label, sizeof label, "within %g units of the face's border", kNearBorder);
    row(label, border);
    for (size_t l = 0; l < levels.size(); ++l) {
        std::snprintf(label, sizeof label, "reference level [%g, %g)", l ? kLevelEdges[l - 1] : 0.0, kLevelEdges[l]);
        row(label, levels[l]);
    }
    // The textures and faces with the most points over 8.
    auto worst = [&](const auto& tallies, const char* title, auto name) {
        using Key = typename std::decay_t<decltype(tallies)>::key_type;
        std::vector<std::pair<size_t, Key>> list;
        for (const auto& [key, t] : tallies)
            if (t.points > t.agree) list.push_back({t.points - t.agree, key});
        std::stable_sort(list.begin(), list.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
        std::printf("%s with the most points over %g:\n", title, kAgreeWithin);
        for (size_t k = 0; k < std::min(list.size(), kTopListed); ++k)
            row((name(list[k].second) + ": " + std::to_string(list[k].first) + " over").c_str(),
                tallies.at(list[k].second));
    };
    std::map<int32_t, std::string> faceTexture;
    for (const Point& p : points) faceTexture.emplace(p.at.face, p.texture);
    worst(textures, "textures", [](const std::string& t) { return t; });
    worst(faces, "faces", [&](int32_t f) { return "face " + std::to_string(f) + " (" + faceTexture[f] + ")"; });
    if (o.examples == 0) return;
    std::vector<size_t> order = compared;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return std::abs(*values[a] - points[a].reference) > std::abs(*values[b] - points[b].reference);
    });
    std::printf("largest differences:\n");
    for (size_t k = 0; k < std::min(o.examples, order.size()); ++k) {
        const Point& p = points[order[k]];
        std::printf("{\"p\":[%.2f,%.2f,%.2f],\"normal\":[%.3f,%.3f,%.3f],\"face\":%d,\"texture\":\"%s\",\"reference\":%.1f,"
                    "\"candidate\":%.1f,\"contrast\":%d,\"depth\":%.1f}\n",
                    p.at.position.x(), p.at.position.y(), p.at.position.z(), p.at.normal.x(), p.at.normal.y(),
                    p.at.normal.z(), p.at.face, p.texture.c_str(), p.reference, *values[order[k]], p.contrast, p.depth);
    }
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parseArgs(argc, argv, o) || (o.map.empty() && o.answers.empty() && o.other.empty())) {
        std::fprintf(stderr, "usage: light_vs_bsp REF.bsp [--map MAP [--cli PATH] | --answers FILE] [--other OTHER.bsp]\n"
                             "                    [--points N] [--seed S] [--examples K] [--write-queries FILE]\n");
        return 2;
    }
    const QuakeBspLightmapReadResult ref = readQuakeBspLightmapsFile(o.reference);
    if (!ref.level) {
        std::fprintf(stderr, "%s\n", ref.error.c_str());
        return 1;
    }
    const QuakeBspLightmaps& bsp = *ref.level;
    size_t litFaces = 0, worldFaces = 0, unlit = 0, special = 0;
    for (const QuakeLightmapFace& f : bsp.faces) {
        if (!f.worldModel) continue;
        ++worldFaces;
        if (bsp.isSkyOrLiquid(f)) ++special;
        else if (bsp.isLitWorldFace(f)) ++litFaces;
        else ++unlit;
    }
    std::printf("reference: %s (%s%s): %zu world faces, %zu lit, %zu sky or liquid, %zu without a style-0 lightmap\n",
                o.reference.c_str(), bsp.format.c_str(), bsp.hasColor() ? ", .lit" : "", worldFaces, litFaces, special,
                unlit);

    // The compilers write the lightmaps one after another (id's light aligns each to 4
    // bytes): the gap to the next one is this face's size when its luxel grid is computed as
    // the compiler computed it.
    {
        std::vector<std::pair<int64_t, int64_t>> blocks; // offset, bytes
        for (const QuakeLightmapFace& f : bsp.faces) {
            if (f.lightofs < 0) continue;
            int64_t styleCount = 0;
            while (styleCount < kQuakeMaxLightmaps && f.styles[size_t(styleCount)] != kQuakeNoStyle) ++styleCount;
            blocks.push_back({f.lightofs, styleCount * f.luxelsWide * f.luxelsHigh});
        }
        std::sort(blocks.begin(), blocks.end());
        size_t overlap = 0, gap = 0, shared = 0;
        for (size_t k = 0; k + 1 < blocks.size(); ++k) {
            const int64_t room = blocks[k + 1].first - blocks[k].first;
            if (room == 0) ++shared;
            else if (room < blocks[k].second) ++overlap;
            else if (room > blocks[k].second + 3) ++gap;
        }
        std::printf("lightmap layout: %zu lightmaps; %zu overlap the next, %zu leave more than 3 bytes before it, %zu "
                    "share an offset\n",
                    blocks.size(), overlap, gap, shared);
    }

    std::optional<MapTextures> mapTextures;
    std::optional<MapFile> map;
    if (!o.map.empty()) {
        MapReadResult read = readMapFile(o.map);
        if (!read.ok()) {
            std::fprintf(stderr, "%s\n", read.error.format().c_str());
            return 1;
        }
        map = std::move(*read.map);
        mapTextures.emplace(*map);
    }
    std::vector<Point> points;
    for (const QuakeSurfacePoint& at : bsp.randomLitPoints(o.points, o.seed)) {
        Point p;
        p.at = at;
        p.reference = bsp.sample(at.face, at.position).light;
        p.contrast = contrastAround(bsp, at.face, at.position);
        p.depth = bsp.depthInFace(at.face, at.position);
        if (mapTextures) std::tie(p.texture, p.covered) = mapTextures->at(at.position, at.normal);
        else p.texture = bspTexture(bsp, at.face);
        points.push_back(std::move(p));
    }
    std::printf("points: %zu, seed %llu\n", points.size(), (unsigned long long)o.seed);

    if (!o.other.empty()) {
        const QuakeBspLightmapReadResult other = readQuakeBspLightmapsFile(o.other);
        if (!other.level) {
            std::fprintf(stderr, "%s\n", other.error.c_str());
            return 1;
        }
        report("other .bsp " + o.other, points, sampleOther(*other.level, points), o);
    }
    if (!o.map.empty() || !o.answers.empty()) {
        std::string firstError;
        std::optional<Values> values;
        if (!o.answers.empty()) values = readAnswers(o.answers, points.size(), &firstError);
        else values = runShallot(o, points, &firstError);
        if (!values) {
            std::fprintf(stderr, "light_vs_bsp: fewer answers than queries from Shallot\n");
            return 1;
        }
        if (!firstError.empty()) std::printf("first answer without a light: %s\n", firstError.c_str());
        report("Shallot's light op", points, *values, o);
    }
    return 0;
}
