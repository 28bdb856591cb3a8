#include "io/quake_bsp_lightmap.h"

#include "io/quake_bsp_lumps.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

namespace shallot {

namespace {

using namespace bsp;

// The lumps this reader uses besides the planes and models, by their index in the header.
constexpr int kLumpTextures = 2;
constexpr int kLumpVertices = 3;
constexpr int kLumpTexinfo = 6;
constexpr int kLumpFaces = 7;
constexpr int kLumpLighting = 8;
constexpr int kLumpEdges = 12;
constexpr int kLumpSurfedges = 13;

constexpr size_t kVertexBytes = 12;   // float point[3]
constexpr size_t kTexinfoBytes = 40;  // float vecs[2][4], int32 miptex, int32 flags
constexpr size_t kSurfedgeBytes = 4;  // int32: edge index, negative for the edge reversed
constexpr size_t kMiptexNameBytes = 16;
constexpr size_t kLitHeaderBytes = 8; // "QLIT", int32 version
constexpr int32_t kLitVersion = 1;

// Faces and edges are wider in BSP2 and 2PSB: int32 plane, side, numedges, texinfo
// (int16 in BSP29) and uint32 edge vertices (uint16 in BSP29).
struct Layout {
    const char* name;
    size_t faceBytes, edgeBytes;
    bool wide;
};
constexpr Layout kBsp29{"BSP29", 20, 4, false};
constexpr Layout kBsp2{"BSP2", 28, 8, true};
constexpr Layout kBsp2psb{"2PSB", 28, 8, true};


// The engine's texture coordinate of a vertex: products summed in double, kept as a float
// (as Quakespasm computes it to agree with the x87 compilers).
float textureCoordinate(const Vec3& v, const Vec3& axis, double offset) {
    return float(v.x() * axis.x() + v.y() * axis.y() + v.z() * axis.z() + offset);
}

// The distance of p inside the polygon's edge a->b (negative outside), for a convex polygon
// wound counter-clockwise about `normal`.
double insideEdge(const Vec3& a, const Vec3& b, const Vec3& p, const Vec3& normal) {
    const Vec3 edge = b - a;
    const double length = edge.norm();
    if (length == 0.0) return std::numeric_limits<double>::infinity();
    return normal.dot(edge.cross(p - a)) / length;
}

// +1 when the polygon winds counter-clockwise about `normal`, -1 when clockwise (Quake's
// faces wind clockwise seen from the front).
double winding(const std::vector<Vec3>& polygon, const Vec3& normal) {
    Vec3 area = Vec3::Zero();
    for (size_t i = 0; i < polygon.size(); ++i) area += polygon[i].cross(polygon[(i + 1) % polygon.size()]);
    return area.dot(normal) >= 0.0 ? 1.0 : -1.0;
}

// How deep p lies inside the face's outline (the least distance inside any edge; negative
// outside), p taken on the face's plane.
double depthInside(const QuakeLightmapFace& face, const Vec3& p) {
    const std::vector<Vec3>& outline = face.outline;
    const Vec3 up = face.normal * winding(outline, face.normal);
    double depth = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < outline.size(); ++i)
        depth = std::min(depth, insideEdge(outline[i], outline[(i + 1) % outline.size()], p, up));
    return depth;
}

// A vertex this close to the line through its neighbours runs straight on (qbsp's float
// T-junction vertices sit within about 1e-3 of their edges).
constexpr double kOnLine = 0.01;
// A vertex where the outline turns back by 180 degrees less this sine (a spike out and back).
constexpr double kTurnBack = 0.01;

std::vector<Vec3> convexOutline(std::vector<Vec3> polygon) {
    bool removed = true;
    while (removed && polygon.size() >= 3) {
        removed = false;
        for (size_t i = 0; i < polygon.size() && polygon.size() >= 3; ++i) {
            const Vec3& before = polygon[(i + polygon.size() - 1) % polygon.size()];
            const Vec3& at = polygon[i];
            const Vec3& after = polygon[(i + 1) % polygon.size()];
            const Vec3 in = at - before, out = after - at, across = after - before;
            const bool repeated = in.isZero(0.0) || across.isZero(0.0);
            const bool turnsBack = in.dot(out) < 0.0 && in.cross(out).norm() <= kTurnBack * in.norm() * out.norm();
            const bool runsOn = !repeated && across.cross(in).norm() <= kOnLine * across.norm();
            if (repeated || turnsBack || runsOn) {
                polygon.erase(polygon.begin() + std::ptrdiff_t(i));
                removed = true;
                break;
            }
        }
    }
    return polygon;
}

// Quake's liquid contents, water -3, slime -4 and lava -5 (bspfile.h).
constexpr int32_t kQuakeContentsWater = -3, kQuakeContentsLava = -5;
bool isLiquid(int32_t contents) { return contents <= kQuakeContentsWater && contents >= kQuakeContentsLava; }

// A uniform double in [0, 1) from the generator's 64 bits, the same on every platform.
double unitRandom(std::mt19937_64& rng) { return double(rng() >> 11) * 0x1.0p-53; }

} // namespace

int64_t QuakeLightmapFace::lightmapOffset(int slot) const {
    if (lightofs < 0 || slot < 0 || slot >= kQuakeMaxLightmaps || styles[size_t(slot)] == kQuakeNoStyle) return -1;
    return int64_t(lightofs) + int64_t(slot) * luxelsWide * luxelsHigh;
}

int QuakeLightmapFace::styleZeroSlot() const {
    for (int slot = 0; slot < kQuakeMaxLightmaps && styles[size_t(slot)] != kQuakeNoStyle; ++slot)
        if (styles[size_t(slot)] == 0) return slot;
    return -1;
}

const std::string& QuakeBspLightmaps::textureName(const QuakeLightmapFace& face) const {
    static const std::string none;
    const int32_t miptex = texinfos[size_t(face.texinfo)].miptex;
    return miptex >= 0 && size_t(miptex) < textureNames.size() ? textureNames[size_t(miptex)] : none;
}

bool QuakeBspLightmaps::isSkyOrLiquid(const QuakeLightmapFace& face) const {
    if (texinfos[size_t(face.texinfo)].flags & kQuakeTexSpecial) return true;
    const int32_t front = face.frontContents, back = face.backContents;
    if (front == kQuakeContentsSky || back == kQuakeContentsSky) return true;
    if ((isLiquid(front) && back != kQuakeContentsSolid) || (isLiquid(back) && front != kQuakeContentsSolid))
        return true;
    const std::string& name = textureName(face);
    if (!name.empty() && name[0] == '*') return true;
    std::string lower = name.substr(0, 3);
    for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    return lower == "sky";
}

bool QuakeBspLightmaps::isLitWorldFace(const QuakeLightmapFace& face) const {
    return face.worldModel && !isSkyOrLiquid(face) && face.styleZeroSlot() >= 0;
}

int32_t QuakeBspLightmaps::findWorldFace(const Vec3& p, const Vec3& normal) const {
    const double normalLength = normal.norm();
    if (!p.allFinite() || !normal.allFinite() || normalLength == 0.0) return -1;
    const Vec3 n = normal / normalLength;
    int32_t best = -1;
    double bestDepth = -kQuakeFaceEdgeTolerance;
    for (size_t i = 0; i < faces.size(); ++i) {
        const QuakeLightmapFace& face = faces[i];
        if (!face.worldModel || face.outline.size() < 3) continue;
        if (std::abs(face.normal.dot(p) - face.dist) > kQuakeFacePlaneTolerance) continue;
        if (face.normal.dot(n) < kQuakeFaceNormalMinCos) continue;
        const double depth = depthInside(face, p);
        if (depth >= bestDepth) {
            bestDepth = depth;
            best = int32_t(i);
        }
    }
    return best;
}

std::array<double, 2> QuakeBspLightmaps::luxelCoordinates(int32_t faceIndex, const Vec3& p) const {
    const QuakeLightmapFace& face = faces[size_t(faceIndex)];
    const QuakeTexinfo& tex = texinfos[size_t(face.texinfo)];
    // The filtered texture clamps at the face's border (a point on the face never reads
    // past it but for rounding).
    auto coordinate = [](double texel, int mins, int luxels) {
        const double c = (texel - mins) / kQuakeLuxelTexels;
        return std::isfinite(c) ? std::clamp(c, 0.0, double(luxels - 1)) : 0.0;
    };
    return {coordinate(tex.sAxis.dot(p) + tex.sOffset, face.textureMins[0], face.luxelsWide),
            coordinate(tex.tAxis.dot(p) + tex.tOffset, face.textureMins[1], face.luxelsHigh)};
}

int QuakeBspLightmaps::luxel(int32_t faceIndex, int i, int j) const {
    const QuakeLightmapFace& face = faces[size_t(faceIndex)];
    const int64_t offset = face.lightmapOffset(face.styleZeroSlot());
    if (offset < 0) return 0;
    i = std::clamp(i, 0, face.luxelsWide - 1);
    j = std::clamp(j, 0, face.luxelsHigh - 1);
    return lighting[size_t(offset) + size_t(j * face.luxelsWide + i)];
}

double QuakeBspLightmaps::depthInFace(int32_t face, const Vec3& p) const { return depthInside(faces[size_t(face)], p); }

QuakeLightSample QuakeBspLightmaps::sample(int32_t faceIndex, const Vec3& p) const {
    QuakeLightSample out;
    out.face = faceIndex;
    const QuakeLightmapFace& face = faces[size_t(faceIndex)];
    const int64_t offset = face.lightmapOffset(face.styleZeroSlot());
    if (offset < 0) return out;
    const auto [u, v] = luxelCoordinates(faceIndex, p);
    const int i0 = std::min(int(u), face.luxelsWide - 1), j0 = std::min(int(v), face.luxelsHigh - 1);
    const int i1 = std::min(i0 + 1, face.luxelsWide - 1), j1 = std::min(j0 + 1, face.luxelsHigh - 1);
    const double fu = u - i0, fv = v - j0;
    const std::array<std::pair<size_t, double>, 4> corners{{
        {size_t(offset) + size_t(j0 * face.luxelsWide + i0), (1 - fu) * (1 - fv)},
        {size_t(offset) + size_t(j0 * face.luxelsWide + i1), fu * (1 - fv)},
        {size_t(offset) + size_t(j1 * face.luxelsWide + i0), (1 - fu) * fv},
        {size_t(offset) + size_t(j1 * face.luxelsWide + i1), fu * fv},
    }};
    for (const auto& [index, weight] : corners) {
        out.light += weight * lighting[index];
        for (size_t c = 0; c < 3; ++c)
            out.color[c] += weight * (hasColor() ? litColors[3 * index + c] : lighting[index]);
    }
    return out;
}

std::optional<QuakeLightSample> QuakeBspLightmaps::sampleAt(const Vec3& p, const Vec3& normal) const {
    const int32_t face = findWorldFace(p, normal);
    if (face < 0) return std::nullopt;
    return sample(face, p);
}

std::vector<QuakeSurfacePoint> QuakeBspLightmaps::randomLitPoints(size_t count, uint64_t seed) const {
    // Every lit face as a fan of triangles, chosen by area.
    struct Triangle {
        int32_t face;
        Vec3 a, b, c;
    };
    std::vector<Triangle> triangles;
    std::vector<double> cumulativeArea;
    double total = 0.0;
    for (size_t i = 0; i < faces.size(); ++i) {
        const QuakeLightmapFace& face = faces[i];
        if (!isLitWorldFace(face)) continue;
        for (size_t k = 1; k + 1 < face.outline.size(); ++k) {
            const Vec3 &a = face.outline[0], &b = face.outline[k], &c = face.outline[k + 1];
            const double area = 0.5 * (b - a).cross(c - a).norm();
            if (!(area > 0.0) || !std::isfinite(area)) continue;
            triangles.push_back({int32_t(i), a, b, c});
            total += area;
            cumulativeArea.push_back(total);
        }
    }
    std::vector<QuakeSurfacePoint> points;
    if (triangles.empty()) return points;
    std::mt19937_64 rng(seed);
    points.reserve(count);
    for (size_t n = 0; n < count; ++n) {
        const double pick = unitRandom(rng) * total;
        const size_t t = std::min(size_t(std::upper_bound(cumulativeArea.begin(), cumulativeArea.end(), pick) -
                                         cumulativeArea.begin()),
                                  triangles.size() - 1);
        double r1 = unitRandom(rng), r2 = unitRandom(rng);
        if (r1 + r2 > 1.0) { // fold the square onto the triangle
            r1 = 1.0 - r1;
            r2 = 1.0 - r2;
        }
        const Triangle& tri = triangles[t];
        points.push_back({tri.a + r1 * (tri.b - tri.a) + r2 * (tri.c - tri.a), faces[size_t(tri.face)].normal, tri.face});
    }
    return points;
}

struct QuakeBspLightmapDecoder : LumpReader {
    // Texture names from the miptex lump; a missing or damaged entry leaves its name empty
    // (the lightmaps do not depend on it; ericw's qbsp writes none without a .wad).
    void readTextureNames(const Lump& textures, QuakeBspLightmaps& level) {
        if (textures.bytes < 4) return;
        const int32_t count = i32(textures.data);
        if (count < 0 || size_t(count) > (textures.bytes - 4) / 4) return;
        level.textureNames.assign(size_t(count), {});
        for (size_t i = 0; i < size_t(count); ++i) {
            const int32_t offset = i32(textures.data + 4 + 4 * i);
            if (offset < 0 || size_t(offset) > textures.bytes || textures.bytes - size_t(offset) < kMiptexNameBytes)
                continue;
            const char* name = reinterpret_cast<const char*>(textures.data + offset);
            level.textureNames[i].assign(name, std::find(name, name + kMiptexNameBytes, '\0'));
        }
    }

    bool readFace(const uint8_t* p, const Layout& layout, size_t index, const std::vector<Vec3>& vertices,
                  const Lump& edges, const Lump& surfedges, const Lump& planes, QuakeBspLightmaps& level) {
        const std::string which = "face " + std::to_string(index);
        const int64_t plane = layout.wide ? i32(p) : u16(p);
        const int64_t side = layout.wide ? i32(p + 4) : u16(p + 2);
        const size_t at = layout.wide ? 8 : 4;
        const int64_t firstEdge = i32(p + at);
        const int64_t numEdges = layout.wide ? i32(p + at + 4) : u16(p + at + 4);
        const int64_t texinfo = layout.wide ? i32(p + at + 8) : u16(p + at + 6);
        const uint8_t* styles = p + (layout.wide ? at + 12 : at + 8);
        QuakeLightmapFace face;
        face.lightofs = i32(styles + 4);
        for (size_t s = 0; s < size_t(kQuakeMaxLightmaps); ++s) face.styles[s] = styles[s];

        if (plane < 0 || uint64_t(plane) >= planes.bytes / kPlaneBytes)
            return fail(which + " has plane " + std::to_string(plane) + " out of range");
        if (texinfo < 0 || uint64_t(texinfo) >= level.texinfos.size())
            return fail(which + " has texinfo " + std::to_string(texinfo) + " out of range");
        const size_t surfedgeCount = surfedges.bytes / kSurfedgeBytes;
        if (firstEdge < 0 || numEdges < 0 || uint64_t(firstEdge) > surfedgeCount ||
            uint64_t(numEdges) > surfedgeCount - uint64_t(firstEdge))
            return fail(which + " has edges " + std::to_string(firstEdge) + " + " + std::to_string(numEdges) +
                        " outside the " + std::to_string(surfedgeCount) + " surfedges");
        const uint8_t* planeBytes = planes.data + size_t(plane) * kPlaneBytes;
        const Vec3 normal(f32(planeBytes), f32(planeBytes + 4), f32(planeBytes + 8));
        const double dist = f32(planeBytes + 12);
        if (!normal.allFinite() || !std::isfinite(dist)) return fail(which + "'s plane is not finite");
        face.normal = side ? Vec3(-normal) : normal;
        face.dist = side ? -dist : dist;
        face.texinfo = int32_t(texinfo);

        const size_t edgeCount = edges.bytes / layout.edgeBytes;
        for (int64_t k = 0; k < numEdges; ++k) {
            const int32_t surfedge = i32(surfedges.data + size_t(firstEdge + k) * kSurfedgeBytes);
            const uint64_t edge = surfedge >= 0 ? uint64_t(surfedge) : uint64_t(-int64_t(surfedge));
            if (edge >= edgeCount)
                return fail(which + " uses edge " + std::to_string(edge) + " of " + std::to_string(edgeCount));
            const uint8_t* e = edges.data + size_t(edge) * layout.edgeBytes;
            const size_t end = surfedge >= 0 ? 0 : 1; // a reversed edge starts at its second vertex
            const uint64_t vertex = layout.wide ? u32(e + 4 * end) : u16(e + 2 * end);
            if (vertex >= vertices.size())
                return fail(which + " uses vertex " + std::to_string(vertex) + " of " + std::to_string(vertices.size()));
            face.polygon.push_back(vertices[size_t(vertex)]);
        }
        face.outline = convexOutline(face.polygon);

        // The engine's extents (CalcSurfaceExtents).
        const QuakeTexinfo& tex = level.texinfos[size_t(texinfo)];
        for (size_t axis = 0; axis < 2; ++axis) {
            if (face.polygon.empty()) break;
            float lo = std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::lowest();
            for (const Vec3& v : face.polygon) {
                const float s = axis == 0 ? textureCoordinate(v, tex.sAxis, tex.sOffset)
                                          : textureCoordinate(v, tex.tAxis, tex.tOffset);
                lo = std::min(lo, s);
                hi = std::max(hi, s);
            }
            if (!(std::abs(lo) <= kQuakeMaxTextureCoordinate && std::abs(hi) <= kQuakeMaxTextureCoordinate))
                return fail(which + " has texture coordinates out of range (" + std::to_string(lo) + " to " +
                            std::to_string(hi) + ")");
            const int mins = int(std::floor(lo / float(kQuakeLuxelTexels)));
            const int maxs = int(std::ceil(hi / float(kQuakeLuxelTexels)));
            face.textureMins[axis] = mins * kQuakeLuxelTexels;
            face.extents[axis] = (maxs - mins) * kQuakeLuxelTexels;
        }
        face.luxelsWide = (face.extents[0] >> 4) + 1;
        face.luxelsHigh = (face.extents[1] >> 4) + 1;

        if (face.lightofs >= 0) {
            int slots = 0;
            while (slots < kQuakeMaxLightmaps && face.styles[size_t(slots)] != kQuakeNoStyle) ++slots;
            const uint64_t bytes = uint64_t(slots) * uint64_t(face.luxelsWide) * uint64_t(face.luxelsHigh);
            if (uint64_t(face.lightofs) > level.lighting.size() || bytes > level.lighting.size() - uint64_t(face.lightofs))
                return fail(which + "'s lightmaps (" + std::to_string(slots) + " of " + std::to_string(face.luxelsWide) +
                            "x" + std::to_string(face.luxelsHigh) + " luxels at " + std::to_string(face.lightofs) +
                            ") run past the lighting lump's " + std::to_string(level.lighting.size()) + " bytes");
        }
        level.faces.push_back(std::move(face));
        return true;
    }

    bool decode(std::span<const uint8_t> lit, QuakeBspLightmaps& level) {
        if (file.size() < kHeaderBytes)
            return fail("file of " + std::to_string(file.size()) + " bytes is shorter than a header (" +
                        std::to_string(kHeaderBytes) + ")");
        const Layout* layout = nullptr;
        if (std::memcmp(file.data(), "BSP2", 4) == 0) layout = &kBsp2;
        else if (std::memcmp(file.data(), "2PSB", 4) == 0) layout = &kBsp2psb;
        else if (i32(file.data()) == kBsp29Version) layout = &kBsp29;
        else return fail("not a Quake level (version " + std::to_string(i32(file.data())) + "; BSP29, BSP2 or 2PSB expected)");
        level.format = layout->name;

        Lump planes, textures, vertices, texinfo, faces, lighting, edges, surfedges, models;
        if (!lump(kLumpPlanes, "planes", kPlaneBytes, &planes) || !lump(kLumpTextures, "textures", 0, &textures) ||
            !lump(kLumpVertices, "vertices", kVertexBytes, &vertices) ||
            !lump(kLumpTexinfo, "texinfo", kTexinfoBytes, &texinfo) ||
            !lump(kLumpFaces, "faces", layout->faceBytes, &faces) || !lump(kLumpLighting, "lighting", 0, &lighting) ||
            !lump(kLumpEdges, "edges", layout->edgeBytes, &edges) ||
            !lump(kLumpSurfedges, "surfedges", kSurfedgeBytes, &surfedges) ||
            !lump(kLumpModels, "models", kModelBytes, &models))
            return false;
        if (models.bytes == 0) return fail("no models (the world model is the first)");

        readTextureNames(textures, level);
        level.lighting.assign(lighting.data, lighting.data + lighting.bytes);
        if (!lit.empty()) {
            if (lit.size() < kLitHeaderBytes || std::memcmp(lit.data(), "QLIT", 4) != 0 || i32(lit.data() + 4) != kLitVersion)
                return fail("the .lit is not a QLIT version 1 file");
            if (lit.size() - kLitHeaderBytes != 3 * level.lighting.size())
                return fail("the .lit holds " + std::to_string(lit.size() - kLitHeaderBytes) + " colour bytes for " +
                            std::to_string(level.lighting.size()) + " lighting bytes (3 each expected)");
            level.litColors.assign(lit.begin() + kLitHeaderBytes, lit.end());
        }

        std::vector<Vec3> points(vertices.bytes / kVertexBytes);
        for (size_t i = 0; i < points.size(); ++i) {
            const uint8_t* p = vertices.data + i * kVertexBytes;
            points[i] = {f32(p), f32(p + 4), f32(p + 8)};
            if (!points[i].allFinite()) return fail("vertex " + std::to_string(i) + " is not finite");
        }
        level.texinfos.resize(texinfo.bytes / kTexinfoBytes);
        for (size_t i = 0; i < level.texinfos.size(); ++i) {
            const uint8_t* p = texinfo.data + i * kTexinfoBytes;
            QuakeTexinfo& tex = level.texinfos[i];
            tex.sAxis = {f32(p), f32(p + 4), f32(p + 8)};
            tex.sOffset = f32(p + 12);
            tex.tAxis = {f32(p + 16), f32(p + 20), f32(p + 24)};
            tex.tOffset = f32(p + 28);
            tex.miptex = i32(p + 32);
            tex.flags = u32(p + 36);
            if (!tex.sAxis.allFinite() || !tex.tAxis.allFinite() || !std::isfinite(tex.sOffset) ||
                !std::isfinite(tex.tOffset))
                return fail("texinfo " + std::to_string(i) + " is not finite");
        }
        const size_t faceCount = faces.bytes / layout->faceBytes;
        level.faces.reserve(faceCount);
        for (size_t i = 0; i < faceCount; ++i)
            if (!readFace(faces.data + i * layout->faceBytes, *layout, i, points, edges, surfedges, planes, level))
                return false;

        const int32_t firstFace = i32(models.data + 56), numFaces = i32(models.data + 60);
        if (firstFace < 0 || numFaces < 0 || size_t(firstFace) > faceCount || size_t(numFaces) > faceCount - size_t(firstFace))
            return fail("the world model's faces " + std::to_string(firstFace) + " + " + std::to_string(numFaces) +
                        " lie outside the " + std::to_string(faceCount) + " faces");
        for (int32_t i = firstFace; i < firstFace + numFaces; ++i) level.faces[size_t(i)].worldModel = true;

        const QuakeBspReadResult tree = readQuakeBsp(file);
        if (!tree.bsp) {
            error = tree.error;
            return false;
        }
        for (QuakeLightmapFace& face : level.faces) {
            if (!face.worldModel || face.polygon.empty()) continue;
            Vec3 centre = Vec3::Zero();
            for (const Vec3& v : face.polygon) centre += v;
            centre /= double(face.polygon.size());
            face.frontContents = tree.bsp->leaves[size_t(tree.bsp->findLeaf(centre + kQuakeFaceSideProbe * face.normal))].contents;
            face.backContents = tree.bsp->leaves[size_t(tree.bsp->findLeaf(centre - kQuakeFaceSideProbe * face.normal))].contents;
        }
        return true;
    }
};

QuakeBspLightmapReadResult readQuakeBspLightmaps(std::span<const uint8_t> bsp, std::span<const uint8_t> lit) {
    QuakeBspLightmapReadResult result;
    QuakeBspLightmapDecoder decoder{{bsp, {}}};
    QuakeBspLightmaps level;
    if (decoder.decode(lit, level)) result.level = std::move(level);
    else result.error = decoder.error;
    return result;
}

namespace {

// The file's bytes, or an error ("" on success).
std::string readWholeFile(const std::string& path, std::vector<uint8_t>* bytes) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return "bsp: cannot open " + path;
    const std::streamoff size = in.tellg();
    if (size < 0 || uint64_t(size) > kMaxQuakeLightmapBspBytes)
        return "bsp: " + path + " is larger than " + std::to_string(kMaxQuakeLightmapBspBytes >> 20) + " MB";
    bytes->resize(static_cast<size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes->data()), size)) return "bsp: cannot read " + path;
    return {};
}

} // namespace

QuakeBspLightmapReadResult readQuakeBspLightmapsFile(const std::string& path) {
    std::vector<uint8_t> bsp, lit;
    if (std::string error = readWholeFile(path, &bsp); !error.empty()) return {std::nullopt, error};
    const std::string litPath = std::filesystem::path(path).replace_extension(".lit").string();
    std::error_code ec;
    if (std::filesystem::exists(litPath, ec))
        if (std::string error = readWholeFile(litPath, &lit); !error.empty()) return {std::nullopt, error};
    QuakeBspLightmapReadResult result = readQuakeBspLightmaps(bsp, lit);
    if (!result.level) result.error += " (" + path + ")";
    return result;
}

} // namespace shallot
