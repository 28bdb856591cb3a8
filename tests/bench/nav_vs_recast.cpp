// Shallot's navigation mesh (core/nav) against Recast/Detour on Quake levels, for the player
// box (issue 30; docs/navigation-vs-recast.md). Not a test: it times things.
//
//   nav_vs_recast [--pairs N] [--runs N] [--cs C] [--ch H] [--image OUT.png | --no-image]
//                 [--visible-faces] [MAP...]
//
// Recast's input is every face of the brushes that block the player (what the issue asks),
// or with --visible-faces only the visible ones (the boundary of their union).
//
// Per level, in one run: the build time of each mesh (median of --runs), its walkable area,
// and over N random start/goal pairs (half sampled on each mesh): found/not found
// agreement, path lengths, and the share of each one's path corners where the player's box
// is in solid or floating, by brute force over the level's brushes. Prints a table and one
// JSON line per level; draws both meshes of the first level side by side.
//
// The Recast side is our own glue over Recast's public API (the usual single-mesh pipeline:
// heightfield, filters, compact heightfield, erosion, watershed regions, contours, polygon
// mesh, detail mesh, Detour tile), written from the headers' documentation.
#include "compile/brush_expansion.h"
#include "compile/compile_state.h"
#include "compile/compiler.h"
#include "compile/stopwatch.h"
#include "geometry/polygon.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "nav/nav_mesh.h"
#include "nav/nav_path.h"
#include "portal/reachability.h"
#include "world/brush_geometry.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <Recast.h>

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace shallot;

namespace {

// ---- Settings -------------------------------------------------------------------------

// The player's box (Quake's hull 1): 32 x 32 x 56, reference point 24 above the feet.
constexpr double kFeetBelowReference = 24.0;
// Recast's agent for that box: a cylinder of the box's half-width, its height, Quake's
// step and Recast's slope limit (Shallot: normal z >= 0.7, about 45.6 degrees).
constexpr float kAgentRadius = 16.0f, kAgentHeight = 56.0f, kAgentClimb = 18.0f, kAgentSlope = 45.0f;

// A corner is in solid when the box placed there overlaps a player-blocking brush by more
// than this (its reference point this far inside the brush grown by the box): a box resting
// on a floor touches it without overlapping, up to rounding.
constexpr double kSolidTolerance = 0.01;
// A corner is floating when the box, moved down by this much, still overlaps nothing (by
// more than kTouchTolerance): there is no floor within this distance below its feet.
constexpr double kFloatTolerance = 2.0;
// Overlaps up to this are rounding (a box beside a wall touches it). Not kSolidTolerance: a
// box standing on the very edge of a ledge, 0.008 of its width on it, overlaps the ledge by
// only 0.008 when moved down, and it is standing.
constexpr double kTouchTolerance = 1e-6;
// A sampled place is handed to Shallot this far above it (findPath drops it onto the floor
// below), and to Detour as the nearest polygon within these half-extents of its feet.
constexpr double kShallotQueryLift = 1.0;
constexpr float kDetourSearchHalfExtent = 32.0f; // Quake units, all three axes

// ---- Coordinates ----------------------------------------------------------------------

// Recast is y-up; Quake z-up. (x, y, z) -> (x, z, -y) is a rotation (determinant +1), so
// outward normals and triangle windings keep their meaning.
void toRecast(const Vec3& q, float* r) {
    r[0] = float(q.x());
    r[1] = float(q.z());
    r[2] = float(-q.y());
}
Vec3 fromRecast(const float* r) { return {double(r[0]), -double(r[2]), double(r[1])}; }

// ---- The level ------------------------------------------------------------------------

struct Level {
    std::string name;
    World world;
    int pose = -1; // the player
    CompileResult compiled;
    double msCompile = 0;          // the whole tree, every pose of the level
    double msCompilePlayerOnly = 0; // the same level with the player pose alone
};

int findPose(const World& w, const std::string& name) {
    for (size_t i = 0; i < w.poses.size(); ++i)
        if (w.poses[i].name == name) return int(i);
    return -1;
}

// ---- Brute force ----------------------------------------------------------------------

// Point in expanded brush, over every brush that blocks the pose (core's exact Minkowski
// expansion: expandedPlanes), independent of the tree and of both meshes.
struct BruteForce {
    struct Expanded {
        Aabb reach; // where the reference point can be for the box to overlap the brush
        std::vector<Plane> planes;
    };
    std::vector<Expanded> brushes;

    BruteForce(const World& w, int pose) {
        const Pose& box = w.poses[size_t(pose)];
        for (const Brush& b : w.brushes) {
            if (!blocks(b, box)) continue;
            const std::optional<BrushGeometry> g = buildBrushGeometry(b, w.bounds).geometry;
            if (!g) continue;
            brushes.push_back({Aabb{g->bounds.mins - box.maxs, g->bounds.maxs - box.mins}, expandedPlanes(*g, box)});
        }
    }
    // How deep the box at p overlaps the brushes (the largest depth; <= 0 when clear).
    double overlap(const Vec3& p) const {
        double deepest = 0;
        for (const Expanded& e : brushes) {
            if (!e.reach.contains(p)) continue;
            double d = -INFINITY;
            for (const Plane& pl : e.planes) d = std::max(d, pl.signedDistance(p));
            deepest = std::max(deepest, -d);
        }
        return deepest;
    }
    bool inSolid(const Vec3& p) const { return overlap(p) > kSolidTolerance; }
    bool floating(const Vec3& p) const { return overlap(p - Vec3(0, 0, kFloatTolerance)) <= kTouchTolerance; }
    // How far the box at p (not in solid) is above the floor: the least drop after which it
    // overlaps a brush by kSolidTolerance (found in steps of kGapStep, then halved down to
    // 1/1000); kGapMax when nothing is that close below.
    static constexpr double kGapStep = 0.25, kGapMax = 64.0;
    double floorGap(const Vec3& p) const {
        for (double d = kGapStep; d < kGapMax; d += kGapStep)
            if (overlap(p - Vec3(0, 0, d)) > kSolidTolerance) {
                double lo = d - kGapStep, hi = d;
                while (hi - lo > 1e-3) {
                    const double mid = 0.5 * (lo + hi);
                    (overlap(p - Vec3(0, 0, mid)) > kSolidTolerance ? hi : lo) = mid;
                }
                return hi;
            }
        return kGapMax;
    }
};

// ---- Recast input: the faces of the brushes that block the player ----------------------

struct TriangleSoup {
    std::vector<float> verts; // Recast coordinates
    std::vector<int> tris;
    int vertCount() const { return int(verts.size() / 3); }
    int triCount() const { return int(tris.size() / 3); }
};

TriangleSoup brushTriangles(const World& w, int pose) {
    TriangleSoup soup;
    const Pose& box = w.poses[size_t(pose)];
    for (const Brush& b : w.brushes) {
        if (!blocks(b, box)) continue;
        const std::optional<BrushGeometry> g = buildBrushGeometry(b, w.bounds).geometry;
        if (!g) continue;
        for (const ConvexFace& f : g->hull.faces) {
            const std::vector<Vec3>& v = f.polygon.vertices;
            if (v.size() < 3) continue;
            const int base = soup.vertCount();
            for (const Vec3& p : v) {
                float r[3];
                toRecast(p, r);
                soup.verts.insert(soup.verts.end(), r, r + 3);
            }
            // A fan; the face's vertices are counter-clockwise seen from outside, which is
            // what Recast's slope test (the normal (b - a) x (c - a)) expects.
            for (size_t k = 1; k + 1 < v.size(); ++k) soup.tris.insert(soup.tris.end(), {base, base + int(k), base + int(k) + 1});
        }
    }
    return soup;
}

// The same brushes' visible faces only: the boundary of their union (Shallot's union faces
// for a zero-size pose blocked as the player is), without the faces hidden inside other
// brushes or pressed against them, as a Quake BSP compiler keeps them. Recast rasterizes
// surfaces: a hidden floor under a thick brush reads to it as a floor with room above.
TriangleSoup visibleTriangles(const World& w, int pose) {
    World faces;
    faces.bounds = w.bounds;
    for (const Brush& b : w.brushes)
        if (blocks(b, w.poses[size_t(pose)])) faces.brushes.push_back(b);
    Pose surface;
    surface.name = "surface";
    surface.blocking = w.poses[size_t(pose)].blockingSet();
    faces.poses = {surface};
    CompileState state;
    CompileResult result;
    compileFromScratch(faces, {}, KeptState::ForUpdates, state, result);
    TriangleSoup soup;
    for (const std::vector<UnionFace>& list : state.perPose[0].faces)
        for (const UnionFace& f : list) {
            const std::vector<Vec3>& v = f.polygon.vertices;
            if (v.size() < 3) continue;
            const int base = soup.vertCount();
            for (const Vec3& p : v) {
                float r[3];
                toRecast(p, r);
                soup.verts.insert(soup.verts.end(), r, r + 3);
            }
            for (size_t k = 1; k + 1 < v.size(); ++k) soup.tris.insert(soup.tris.end(), {base, base + int(k), base + int(k) + 1});
        }
    return soup;
}

// ---- Recast / Detour build ------------------------------------------------------------

class Context : public rcContext {
public:
    Context() : rcContext(true) {}

protected:
    void doLog(const rcLogCategory category, const char* msg, const int len) override {
        if (category >= RC_LOG_WARNING) std::fprintf(stderr, "recast: %.*s\n", len, msg);
    }
};

struct RecastSettings {
    float cs = 8.0f; // cell size: the agent radius / 2
    float ch = 4.0f; // cell height: the cell size / 2
};

struct RecastMesh {
    rcConfig cfg{};
    rcPolyMesh* pmesh = nullptr;
    rcPolyMeshDetail* dmesh = nullptr;
    dtNavMesh* nav = nullptr;
    bool ok = false;

    RecastMesh() = default;
    RecastMesh(const RecastMesh&) = delete;
    RecastMesh& operator=(const RecastMesh&) = delete;
    RecastMesh(RecastMesh&& o) noexcept { *this = std::move(o); }
    RecastMesh& operator=(RecastMesh&& o) noexcept {
        std::swap(cfg, o.cfg);
        std::swap(pmesh, o.pmesh);
        std::swap(dmesh, o.dmesh);
        std::swap(nav, o.nav);
        std::swap(ok, o.ok);
        return *this;
    }
    ~RecastMesh() {
        rcFreePolyMesh(pmesh);
        rcFreePolyMeshDetail(dmesh);
        dtFreeNavMesh(nav);
    }
};

// From the triangles to a Detour navigation mesh: one tile over the whole level.
RecastMesh buildRecast(const TriangleSoup& soup, const RecastSettings& s) {
    Context ctx;
    RecastMesh out;
    rcConfig& cfg = out.cfg;
    cfg.cs = s.cs;
    cfg.ch = s.ch;
    cfg.walkableSlopeAngle = kAgentSlope;
    cfg.walkableHeight = int(std::ceil(kAgentHeight / s.ch));
    cfg.walkableClimb = int(std::floor(kAgentClimb / s.ch));
    cfg.walkableRadius = int(std::ceil(kAgentRadius / s.cs));
    // The rest as Recast's sample settings are, relative to the voxel size: edges up to 40
    // cells, contours within 1.3 cells of the voxels, regions of at least 8 x 8 cells (merged
    // below 20 x 20), polygons of up to 6 vertices, detail samples every 6 cells and within
    // one cell height.
    cfg.maxEdgeLen = 40;
    cfg.maxSimplificationError = 1.3f;
    cfg.minRegionArea = 8 * 8;
    cfg.mergeRegionArea = 20 * 20;
    cfg.maxVertsPerPoly = DT_VERTS_PER_POLYGON;
    cfg.detailSampleDist = 6 * s.cs;
    cfg.detailSampleMaxError = 1 * s.ch;
    rcCalcBounds(soup.verts.data(), soup.vertCount(), cfg.bmin, cfg.bmax);
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);

    rcHeightfield* solid = rcAllocHeightfield();
    rcCompactHeightfield* chf = rcAllocCompactHeightfield();
    rcContourSet* cset = rcAllocContourSet();
    auto cleanup = [&] {
        rcFreeHeightField(solid);
        rcFreeCompactHeightfield(chf);
        rcFreeContourSet(cset);
    };
    std::vector<unsigned char> areas(size_t(soup.triCount()), RC_NULL_AREA);
    if (!rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch)) return cleanup(), std::move(out);
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, soup.verts.data(), soup.vertCount(), soup.tris.data(), soup.triCount(),
                            areas.data());
    if (!rcRasterizeTriangles(&ctx, soup.verts.data(), soup.vertCount(), soup.tris.data(), areas.data(), soup.triCount(), *solid,
                              cfg.walkableClimb))
        return cleanup(), std::move(out);
    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);
    if (!rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf)) return cleanup(), std::move(out);
    if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf)) return cleanup(), std::move(out);
    if (!rcBuildDistanceField(&ctx, *chf)) return cleanup(), std::move(out);
    if (!rcBuildRegions(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea)) return cleanup(), std::move(out);
    if (!rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset)) return cleanup(), std::move(out);
    out.pmesh = rcAllocPolyMesh();
    if (!rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *out.pmesh)) return cleanup(), std::move(out);
    out.dmesh = rcAllocPolyMeshDetail();
    if (!rcBuildPolyMeshDetail(&ctx, *out.pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *out.dmesh))
        return cleanup(), std::move(out);
    cleanup();

    // Every walkable polygon gets flag 1 (Detour's default filter takes any flag).
    for (int i = 0; i < out.pmesh->npolys; ++i) out.pmesh->flags[i] = out.pmesh->areas[i] == RC_WALKABLE_AREA ? 1 : 0;
    dtNavMeshCreateParams params;
    std::memset(&params, 0, sizeof(params));
    params.verts = out.pmesh->verts;
    params.vertCount = out.pmesh->nverts;
    params.polys = out.pmesh->polys;
    params.polyAreas = out.pmesh->areas;
    params.polyFlags = out.pmesh->flags;
    params.polyCount = out.pmesh->npolys;
    params.nvp = out.pmesh->nvp;
    params.detailMeshes = out.dmesh->meshes;
    params.detailVerts = out.dmesh->verts;
    params.detailVertsCount = out.dmesh->nverts;
    params.detailTris = out.dmesh->tris;
    params.detailTriCount = out.dmesh->ntris;
    params.walkableHeight = kAgentHeight;
    params.walkableRadius = kAgentRadius;
    params.walkableClimb = kAgentClimb;
    rcVcopy(params.bmin, out.pmesh->bmin);
    rcVcopy(params.bmax, out.pmesh->bmax);
    params.cs = cfg.cs;
    params.ch = cfg.ch;
    params.buildBvTree = true;
    unsigned char* data = nullptr;
    int dataSize = 0;
    if (!dtCreateNavMeshData(&params, &data, &dataSize)) {
        std::fprintf(stderr, "recast: dtCreateNavMeshData failed (%d vertices, %d polygons)\n", out.pmesh->nverts,
                     out.pmesh->npolys);
        return out;
    }
    out.nav = dtAllocNavMesh();
    if (dtStatusFailed(out.nav->init(data, dataSize, DT_TILE_FREE_DATA))) {
        dtFree(data);
        return out;
    }
    out.ok = true;
    return out;
}

// The detail mesh's triangles, in Quake coordinates at the feet, with their polygon.
struct DetailTriangle {
    Vec3 a, b, c;
    int poly = -1;
    double area() const { return 0.5 * (b - a).cross(c - a).norm(); }
};
std::vector<DetailTriangle> detailTriangles(const RecastMesh& m) {
    std::vector<DetailTriangle> out;
    const rcPolyMeshDetail& d = *m.dmesh;
    for (int i = 0; i < d.nmeshes; ++i) {
        const unsigned int* sub = &d.meshes[i * 4];
        const float* verts = &d.verts[sub[0] * 3];
        for (unsigned int t = 0; t < sub[3]; ++t) {
            const unsigned char* tri = &d.tris[(sub[2] + t) * 4];
            out.push_back({fromRecast(&verts[tri[0] * 3]), fromRecast(&verts[tri[1] * 3]), fromRecast(&verts[tri[2] * 3]), i});
        }
    }
    return out;
}

// The polygon mesh's polygons in Quake coordinates (the feet), for the picture.
std::vector<std::vector<Vec3>> recastPolygons(const RecastMesh& m) {
    std::vector<std::vector<Vec3>> out;
    const rcPolyMesh& p = *m.pmesh;
    for (int i = 0; i < p.npolys; ++i) {
        std::vector<Vec3> poly;
        for (int k = 0; k < p.nvp; ++k) {
            const unsigned short v = p.polys[i * 2 * p.nvp + k];
            if (v == RC_MESH_NULL_IDX) break;
            const unsigned short* pv = &p.verts[v * 3];
            const float r[3] = {p.bmin[0] + pv[0] * p.cs, p.bmin[1] + pv[1] * p.ch, p.bmin[2] + pv[2] * p.cs};
            poly.push_back(fromRecast(r));
        }
        out.push_back(std::move(poly));
    }
    return out;
}

// ---- Paths --------------------------------------------------------------------------

struct PathResult {
    bool found = false;
    double length = 0;
    std::vector<Vec3> points; // reference points (Quake coordinates)
    std::vector<Vec3> snapped; // Detour only: the corners put on the detail mesh (getPolyHeight)
    double us = 0;
};

double polylineLength(const std::vector<Vec3>& pts) {
    double l = 0;
    for (size_t i = 1; i < pts.size(); ++i) l += (pts[i] - pts[i - 1]).norm();
    return l;
}

// Seen from above: how far the agent walks (Quake moves a player at one horizontal speed,
// up stairs and down drops alike), and free of the heights Detour gives its corners, which
// come from its cell-rounded polygon mesh (a flight of steps is a slope of about the right
// height there, a drop of two steps may count one).
double polylineLengthXY(const std::vector<Vec3>& pts) {
    double l = 0;
    for (size_t i = 1; i < pts.size(); ++i) l += std::hypot(pts[i].x() - pts[i - 1].x(), pts[i].y() - pts[i - 1].y());
    return l;
}

struct Detour {
    dtNavMeshQuery* query = dtAllocNavMeshQuery();
    dtQueryFilter filter;
    std::vector<dtPolyRef> corridor = std::vector<dtPolyRef>(8192);
    std::vector<float> straight = std::vector<float>(3 * 4096);
    std::vector<dtPolyRef> straightRefs = std::vector<dtPolyRef>(4096);
    explicit Detour(const dtNavMesh* nav) { query->init(nav, 65535); }
    ~Detour() { dtFreeNavMeshQuery(query); }
    Detour(const Detour&) = delete;
    Detour& operator=(const Detour&) = delete;

    // The polygon nearest the feet of a reference point, and the point on it.
    dtPolyRef nearest(const Vec3& reference, float* onPoly) const {
        float feet[3];
        toRecast(reference - Vec3(0, 0, kFeetBelowReference), feet);
        const float ext[3] = {kDetourSearchHalfExtent, kDetourSearchHalfExtent, kDetourSearchHalfExtent};
        dtPolyRef ref = 0;
        if (dtStatusFailed(query->findNearestPoly(feet, ext, &filter, &ref, onPoly))) return 0;
        return ref;
    }

    PathResult path(const Vec3& from, const Vec3& to) {
        PathResult r;
        Stopwatch watch;
        float a[3], b[3];
        const dtPolyRef start = nearest(from, a), goal = nearest(to, b);
        if (!start || !goal) {
            r.us = watch.lapMs() * 1000;
            return r;
        }
        int n = 0;
        const dtStatus st = query->findPath(start, goal, a, b, &filter, corridor.data(), &n, int(corridor.size()));
        if (dtStatusFailed(st) || (st & DT_PARTIAL_RESULT) || n == 0 || corridor[size_t(n - 1)] != goal) {
            r.us = watch.lapMs() * 1000;
            return r;
        }
        int m = 0;
        const dtStatus ss = query->findStraightPath(a, b, corridor.data(), n, straight.data(), nullptr, straightRefs.data(), &m,
                                                    int(straightRefs.size()));
        r.us = watch.lapMs() * 1000;
        if (dtStatusFailed(ss) || m == 0) return r;
        r.found = true;
        for (int i = 0; i < m; ++i) {
            const float* p = &straight[size_t(i) * 3];
            r.points.push_back(fromRecast(p) + Vec3(0, 0, kFeetBelowReference));
            float h = p[1];
            if (straightRefs[size_t(i)] && dtStatusFailed(query->getPolyHeight(straightRefs[size_t(i)], p, &h))) h = p[1];
            const float q[3] = {p[0], h, p[2]};
            r.snapped.push_back(fromRecast(q) + Vec3(0, 0, kFeetBelowReference));
        }
        r.length = polylineLength(r.points);
        return r;
    }
};

// ---- Sampling ---------------------------------------------------------------------------

Vec3 randomInTriangle(std::mt19937_64& rng, const Vec3& a, const Vec3& b, const Vec3& c) {
    std::uniform_real_distribution<double> u(0, 1);
    double s = u(rng), t = u(rng);
    if (s + t > 1) s = 1 - s, t = 1 - t;
    return a + s * (b - a) + t * (c - a);
}

// Uniform by area over Shallot's walkable surfaces, as reference points: over the tree's
// leaf polygons that the mesh is made of (fans), so that the places do not depend on how
// the mesh merges them (merge_polygons.h) and two versions of it are compared on the same
// pairs.
struct ShallotSampler {
    struct Tri {
        Vec3 a, b, c;
    };
    std::vector<Tri> tris;
    std::discrete_distribution<size_t> pick;
    ShallotSampler(const BspTree& tree, const NavMesh& mesh) {
        std::vector<double> w;
        for (uint32_t i = 0; i < tree.polygons.size(); ++i) {
            const LeafPolygon& lp = tree.polygons[i];
            if (lp.pose != mesh.pose || tree.planes[size_t(lp.plane)].normal.z() < mesh.settings.walkableNormalZ) continue;
            const auto span = tree.polygons.vertices(i);
            const std::vector<Vec3> v(span.begin(), span.end());
            if (mesh.polygonAt(polygonCentroid(v)) < 0) continue; // left out of the mesh (roofs)
            for (size_t k = 1; k + 1 < v.size(); ++k) {
                tris.push_back({v[0], v[k], v[k + 1]});
                w.push_back(0.5 * (v[k] - v[0]).cross(v[k + 1] - v[0]).norm());
            }
        }
        pick = std::discrete_distribution<size_t>(w.begin(), w.end());
    }
    Vec3 operator()(std::mt19937_64& rng) {
        const Tri& t = tris[pick(rng)];
        return randomInTriangle(rng, t.a, t.b, t.c);
    }
};

// Uniform by area over Recast's detail triangles, as reference points (feet + 24).
struct RecastSampler {
    const std::vector<DetailTriangle>& tris;
    std::discrete_distribution<size_t> pick;
    explicit RecastSampler(const std::vector<DetailTriangle>& t) : tris(t) {
        std::vector<double> w;
        for (const DetailTriangle& d : t) w.push_back(d.area());
        pick = std::discrete_distribution<size_t>(w.begin(), w.end());
    }
    Vec3 operator()(std::mt19937_64& rng) {
        const DetailTriangle& t = tris[pick(rng)];
        return randomInTriangle(rng, t.a, t.b, t.c) + Vec3(0, 0, kFeetBelowReference);
    }
};

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// ---- The picture -------------------------------------------------------------------------

QColor heightColour(double z, double lo, double hi) {
    const double t = hi > lo ? std::clamp((z - lo) / (hi - lo), 0.0, 1.0) : 0.5;
    // Dark blue (low) through green to light yellow (high).
    return QColor::fromHsvF(float(0.66 - 0.5 * t), 0.65f, float(0.45 + 0.5 * t));
}

// Polygons seen from above, filled by height; `grey` ones (the roofs and outer walls' tops
// Recast walks on, outside the level) drawn first in grey, under the others; `red` ones (where
// the box would be in solid) last, outlined in red, over them.
void drawPanel(QPainter& painter, const QRectF& panel, const QString& title, std::vector<std::vector<Vec3>> polygons,
               const std::vector<std::vector<Vec3>>& grey, const std::vector<std::vector<Vec3>>& red, const Aabb& frame,
               double zLo, double zHi) {
    painter.save();
    painter.setClipRect(panel);
    painter.fillRect(panel, QColor(24, 24, 28));
    const double titleHeight = 52, margin = 10;
    const QRectF area(panel.left() + margin, panel.top() + titleHeight, panel.width() - 2 * margin,
                      panel.height() - titleHeight - margin);
    const double scale = std::min(area.width() / (frame.maxs.x() - frame.mins.x()), area.height() / (frame.maxs.y() - frame.mins.y()));
    const double ox = area.left() + 0.5 * (area.width() - scale * (frame.maxs.x() - frame.mins.x()));
    const double oy = area.top() + 0.5 * (area.height() - scale * (frame.maxs.y() - frame.mins.y()));
    auto map = [&](const Vec3& p) { return QPointF(ox + scale * (p.x() - frame.mins.x()), oy + scale * (frame.maxs.y() - p.y())); };
    // Lowest first, so upper floors cover the floors below them as seen from above.
    auto meanZ = [](const std::vector<Vec3>& poly) {
        double z = 0;
        for (const Vec3& v : poly) z += v.z();
        return poly.empty() ? 0 : z / double(poly.size());
    };
    std::sort(polygons.begin(), polygons.end(), [&](const auto& a, const auto& b) { return meanZ(a) < meanZ(b); });
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const auto& poly : grey) {
        QPolygonF q;
        for (const Vec3& v : poly) q << map(v);
        painter.setBrush(QColor(70, 70, 76));
        painter.setPen(QPen(QColor(110, 110, 118), 0.6));
        painter.drawPolygon(q);
    }
    for (const auto& poly : polygons) {
        QPolygonF q;
        for (const Vec3& v : poly) q << map(v);
        painter.setBrush(heightColour(meanZ(poly), zLo, zHi));
        painter.setPen(QPen(QColor(0, 0, 0, 150), 0.6));
        painter.drawPolygon(q);
    }
    for (const auto& poly : red) {
        QPolygonF q;
        for (const Vec3& v : poly) q << map(v);
        painter.setBrush(QColor(200, 40, 40, 110));
        painter.setPen(QPen(QColor(255, 70, 70), 1.2));
        painter.drawPolygon(q);
    }
    painter.setPen(Qt::white);
    QFont font = painter.font();
    font.setPixelSize(17);
    font.setBold(true);
    painter.setFont(font);
    painter.drawText(QRectF(panel.left(), panel.top() + 6, panel.width(), titleHeight - 6), Qt::AlignHCenter | Qt::AlignTop, title);
    painter.restore();
}

// whereIs(reference point): 0 inside the level, 1 outside it (roofs), 2 in solid.
template <class WhereIs>
void writePicture(const std::string& path, const std::string& level, const NavMesh& mesh, const RecastMesh& recast,
                  const RecastSettings& s, const WhereIs& whereIs) {
    std::vector<std::vector<Vec3>> left, right, rightOutside, rightSolid;
    Aabb frame;
    for (const NavPolygon& p : mesh.polygons) {
        left.push_back(p.vertices);
        for (const Vec3& v : p.vertices) frame.add(v);
    }
    for (std::vector<Vec3>& poly : recastPolygons(recast)) {
        Vec3 centre = Vec3::Zero();
        for (Vec3& v : poly) {
            v.z() += kFeetBelowReference; // the same heights as Shallot's reference points
            frame.add(v);
            centre += v / double(poly.size());
        }
        const int w = whereIs(centre);
        (w == 0 ? right : w == 1 ? rightOutside : rightSolid).push_back(std::move(poly));
    }
    const int panelW = 780, panelH = int(std::ceil(panelW * (frame.maxs.y() - frame.mins.y()) / (frame.maxs.x() - frame.mins.x()))) + 62;
    QImage image(2 * panelW + 8, std::min(panelH, 1200), QImage::Format_RGB32);
    image.fill(QColor(60, 60, 66));
    QPainter painter(&image);
    drawPanel(painter, QRectF(0, 0, panelW, image.height()),
              QString::fromStdString(level + ": Shallot, player box (" + std::to_string(mesh.polygons.size()) +
                                     " polygons)\ncolour: height (the same scale on both)"),
              left, {}, {}, frame, frame.mins.z(), frame.maxs.z());
    char title[200];
    std::snprintf(title, sizeof title, "%s: Recast, cs %g ch %g (%d polygons)\ngrey: outside the level; red: in solid",
                  level.c_str(), double(s.cs), double(s.ch), recast.pmesh->npolys);
    drawPanel(painter, QRectF(panelW + 8, 0, panelW, image.height()), QString::fromUtf8(title), right, rightOutside, rightSolid,
              frame, frame.mins.z(), frame.maxs.z());
    painter.end();
    if (!image.save(QString::fromStdString(path))) std::fprintf(stderr, "could not write %s\n", path.c_str());
    else std::printf("wrote %s (%dx%d)\n", path.c_str(), image.width(), image.height());
}

// ---- One level ------------------------------------------------------------------------

struct MethodStats {
    int found = 0;
    std::vector<double> lengths;
    long corners = 0, inSolid = 0, inSolidDeep = 0, floating = 0;
    long snappedMoved = 0; // Detour: corners getPolyHeight (the detail mesh) puts elsewhere
    double deepest = 0;
    Vec3 deepestAt = Vec3::Zero();
    std::vector<double> gaps; // floorGap of the corners not in solid
    std::vector<double> micros;
    std::vector<Vec3> invalidExamples;
};

void checkCorners(const BruteForce& brute, const std::vector<Vec3>& points, MethodStats& s) {
    for (const Vec3& p : points) {
        ++s.corners;
        const double depth = brute.overlap(p);
        if (depth > s.deepest) s.deepest = depth, s.deepestAt = p;
        const bool solid = depth > kSolidTolerance, floats = !solid && brute.floating(p);
        if (solid) ++s.inSolid;
        if (depth > 1.0) ++s.inSolidDeep;
        if (floats) ++s.floating;
        if (!solid) s.gaps.push_back(brute.floorGap(p));
        if ((solid || floats) && s.invalidExamples.size() < 5) s.invalidExamples.push_back(p);
    }
}

struct Options {
    int pairs = 1000;
    int runs = 5;
    RecastSettings recast;
    std::string image; // empty: none
    bool visibleFaces = false; // Recast's input: every face of the brushes, or the visible ones
    std::vector<std::string> maps;
};

bool runLevel(const std::string& mapPath, const Options& opt, bool picture) {
    Level level;
    level.name = std::filesystem::path(mapPath).stem().string();
    const MapReadResult read = readMapFile(mapPath);
    if (!read.ok()) {
        std::fprintf(stderr, "%s: %s\n", mapPath.c_str(), read.error.format().c_str());
        return false;
    }
    level.world = worldFromMap(*read.map);
    level.pose = findPose(level.world, "player");
    if (level.pose < 0) {
        std::fprintf(stderr, "%s: no player pose\n", mapPath.c_str());
        return false;
    }
    {
        Stopwatch w;
        level.compiled = compileWorld(level.world);
        level.msCompile = w.lapMs();
        World alone = level.world;
        alone.poses = {level.world.poses[size_t(level.pose)]};
        w.lapMs();
        const CompileResult c = compileWorld(alone);
        level.msCompilePlayerOnly = w.lapMs();
    }
    if (!level.compiled.error.empty()) {
        std::fprintf(stderr, "%s: %s\n", mapPath.c_str(), level.compiled.error.c_str());
        return false;
    }
    const BspTree& tree = level.compiled.onion;
    const NavSettings navSettings = level.world.poses[size_t(level.pose)].nav;

    // Build times, median of opt.runs each (the last mesh of each is kept).
    NavMesh mesh;
    std::vector<double> shallotMs, recastMs;
    for (int i = 0; i < opt.runs; ++i) {
        Stopwatch w;
        mesh = buildNavMesh(tree, level.pose, navSettings);
        shallotMs.push_back(w.lapMs());
    }
    Stopwatch soupWatch;
    const TriangleSoup soup = opt.visibleFaces ? visibleTriangles(level.world, level.pose) : brushTriangles(level.world, level.pose);
    const double msTriangles = soupWatch.lapMs();
    RecastMesh recast;
    for (int i = 0; i < opt.runs; ++i) {
        Stopwatch w;
        recast = buildRecast(soup, opt.recast);
        recastMs.push_back(w.lapMs());
        if (!recast.ok) {
            std::fprintf(stderr, "%s: the Recast build failed\n", mapPath.c_str());
            return false;
        }
    }
    const std::vector<DetailTriangle> detail = detailTriangles(recast);
    // Where a place for the box (a reference point) is, by the tree, 1 unit up: in solid, in
    // the void around the level (a leaf reachable from outside the world box: roofs' tops,
    // which Shallot's insideOnly leaves out), or inside the level. Recast's heights lie about
    // one cell height above the floor (see the corners below), so a place is in solid only
    // when it is there and one cell height lower too.
    enum class Where { Inside, Void, Solid };
    const std::vector<bool> outside = reachableFromOutside(tree, level.pose);
    auto where = [&](const Vec3& p) {
        Vec3 q = p + Vec3(0, 0, 1);
        if (tree.isSolid(q, level.pose)) {
            q.z() -= opt.recast.ch;
            if (tree.isSolid(q, level.pose)) return Where::Solid;
        }
        return outside[size_t(tree.findLeaf(q))] ? Where::Void : Where::Inside;
    };
    auto inside = [&](const Vec3& p) { return where(p) == Where::Inside; };
    double recastArea = 0, recastAreaInside = 0, recastAreaVoid = 0, recastAreaSolid = 0;
    for (const DetailTriangle& t : detail) {
        recastArea += t.area();
        const Where w = where((t.a + t.b + t.c) / 3 + Vec3(0, 0, kFeetBelowReference));
        (w == Where::Inside ? recastAreaInside : w == Where::Void ? recastAreaVoid : recastAreaSolid) += t.area();
    }

    // Paths: the first half of the pairs sampled on Shallot's mesh, the second on Recast's.
    const BruteForce brute(level.world, level.pose);
    Detour detour(recast.nav);
    ShallotSampler onShallot(tree, mesh);
    RecastSampler onRecast(detail);
    std::mt19937_64 rng(30);
    MethodStats sh, rc;
    int both = 0, onlyShallot = 0, onlyRecast = 0, neither = 0;
    int shallotSamplesOffRecast = 0, recastSamplesOffShallot = 0;
    std::vector<double> ratios, ratiosXY, bothShallotLen, bothRecastLen;
    // Pairs whose two places are inside the level (where(), above): places on roofs, on the
    // tops of outer walls and in solid left out.
    // Shallot's paths that Detour does not find, and of them those that drop (go down more
    // than the step height between two corners: Detour has no drop links).
    int onlyShallotDropping = 0;
    int insidePairs = 0, insideBoth = 0, insideOnlyShallot = 0, insideOnlyRecast = 0, insideNeither = 0;
    struct Worst {
        double ratio;
        Vec3 a, b;
        size_t shallotPoints, recastPoints;
        double shallotLength, recastLength, straight;
        std::vector<Vec3> shallot, recast;
    };
    std::vector<Worst> worst;
    for (int i = 0; i < opt.pairs; ++i) {
        const bool fromShallot = i < opt.pairs / 2;
        const Vec3 a = fromShallot ? onShallot(rng) : onRecast(rng);
        const Vec3 b = fromShallot ? onShallot(rng) : onRecast(rng);
        for (const Vec3& p : {a, b}) {
            float unused[3];
            if (fromShallot && !detour.nearest(p, unused)) ++shallotSamplesOffRecast;
            if (!fromShallot) {
                const Landing l = dropToFloor(tree, mesh, p + Vec3(0, 0, kShallotQueryLift));
                if (!l.landed || l.polygon < 0) ++recastSamplesOffShallot;
            }
        }
        Stopwatch w;
        const NavPath sp = findPath(tree, mesh, a + Vec3(0, 0, kShallotQueryLift), b + Vec3(0, 0, kShallotQueryLift));
        sh.micros.push_back(w.lapMs() * 1000);
        const PathResult rp = detour.path(a, b);
        rc.micros.push_back(rp.us);
        if (sp.found) {
            ++sh.found;
            sh.lengths.push_back(sp.length);
            checkCorners(brute, sp.points, sh);
        }
        if (rp.found) {
            ++rc.found;
            rc.lengths.push_back(rp.length);
            checkCorners(brute, rp.points, rc);
            for (size_t k = 0; k < rp.points.size(); ++k) {
                if (std::abs(rp.snapped[k].z() - rp.points[k].z()) > 0.01) ++rc.snappedMoved;
            }
        }
        if (inside(a) && inside(b)) {
            ++insidePairs;
            if (sp.found && rp.found) ++insideBoth;
            else if (sp.found) ++insideOnlyShallot;
            else if (rp.found) ++insideOnlyRecast;
            else ++insideNeither;
        }
        if (sp.found && rp.found) {
            ++both;
            ratios.push_back(sp.length / rp.length);
            ratiosXY.push_back(polylineLengthXY(sp.points) / polylineLengthXY(rp.points));
            worst.push_back({ratios.back(), a, b, sp.points.size(), rp.points.size(), sp.length, rp.length, (sp.points.back() - sp.points.front()).norm(),
                             sp.points, rp.points});
            bothShallotLen.push_back(sp.length);
            bothRecastLen.push_back(rp.length);
        } else if (sp.found) {
            ++onlyShallot;
            for (size_t k = 1; k < sp.points.size(); ++k)
                if (sp.points[k - 1].z() - sp.points[k].z() > navSettings.stepHeight + 1e-6) {
                    ++onlyShallotDropping;
                    break;
                }
        }
        else if (rp.found) ++onlyRecast;
        else ++neither;
    }
    auto mean = [](const std::vector<double>& v) {
        double s = 0;
        for (double x : v) s += x;
        return v.empty() ? 0.0 : s / double(v.size());
    };
    auto share = [](long n, long d) { return d ? double(n) / double(d) : 0.0; };

    // The table.
    const double shMs = median(shallotMs), rcMs = median(recastMs);
    std::printf("\n== %s (player: box 32 x 32 x 56; Recast cylinder r %g h %g climb %g slope %g, cs %g ch %g)\n", level.name.c_str(),
                double(kAgentRadius), double(kAgentHeight), double(kAgentClimb), double(kAgentSlope), double(opt.recast.cs),
                double(opt.recast.ch));
    std::printf("tree compile (not in the mesh build): %.0f ms for the level's %zu poses, %.0f ms for the player alone\n",
                level.msCompile, level.world.poses.size(), level.msCompilePlayerOnly);
    std::printf("Recast input: %d triangles of %s of %zu player-blocking brushes, gathered in %.1f ms (not in its build)\n",
                soup.triCount(), opt.visibleFaces ? "the visible faces" : "all the faces", brute.brushes.size(), msTriangles);
    std::printf("%-34s %14s %14s\n", "", "Shallot", "Recast/Detour");
    std::printf("%-34s %14.1f %14.1f\n", "mesh build, ms (median of runs)", shMs, rcMs);
    std::printf("%-34s %14zu %14d\n", "polygons", mesh.polygons.size(), recast.pmesh->npolys);
    std::printf("%-34s %14.0f %14.0f\n", "walkable area, units^2", mesh.area, recastArea);
    std::printf("%-34s %14s %14.0f\n", "  of it inside the level", "(all)", recastAreaInside);
    std::printf("%-34s %14s %14.0f\n", "  outside (roofs, outer walls)", "", recastAreaVoid);
    std::printf("%-34s %14s %14.0f\n", "  in solid (the box overlaps)", "", recastAreaSolid);
    std::printf("%-34s %14d %14d\n", "pairs found", sh.found, rc.found);
    std::printf("agreement: both %d, only Shallot %d, only Recast %d, neither %d (%.1f%% agree)\n", both, onlyShallot, onlyRecast,
                neither, 100.0 * (both + neither) / opt.pairs);
    std::printf("of the %d only Shallot finds, %d drop (down more than a step between two corners)\n", onlyShallot,
                onlyShallotDropping);
    std::printf("pairs with both places inside the level: %d; of them both %d, only Shallot %d, only Recast %d, neither %d "
                "(%.1f%% agree)\n",
                insidePairs, insideBoth, insideOnlyShallot, insideOnlyRecast, insideNeither,
                insidePairs ? 100.0 * (insideBoth + insideNeither) / insidePairs : 0.0);
    std::printf("samples on the other mesh missing: %d of %d Shallot samples have no Detour polygon within %g; "
                "%d of %d Recast samples fall on no Shallot polygon\n",
                shallotSamplesOffRecast, opt.pairs, double(kDetourSearchHalfExtent), recastSamplesOffShallot, opt.pairs);
    std::printf("%-34s %14.1f %14.1f\n", "mean length, own found paths", mean(sh.lengths), mean(rc.lengths));
    std::printf("%-34s %14.1f %14.1f\n", "mean length, pairs both found", mean(bothShallotLen), mean(bothRecastLen));
    std::printf("%-34s %14.4f %14s\n", "mean ratio Shallot/Recast (both)", mean(ratios), "");
    std::printf("%-34s %14.4f %14s\n", "median ratio Shallot/Recast", median(ratios), "");
    std::printf("%-34s %14.4f %14s\n", "  seen from above: mean ratio", mean(ratiosXY), "");
    std::printf("%-34s %14.4f %14s\n", "  seen from above: median ratio", median(ratiosXY), "");
    std::printf("%-34s %14ld %14ld\n", "path corners", sh.corners, rc.corners);
    std::printf("%-34s %13.2f%% %13.2f%%\n", "corners in solid (> 0.01 deep)", 100 * share(sh.inSolid, sh.corners),
                100 * share(rc.inSolid, rc.corners));
    std::printf("%-34s %13.2f%% %13.2f%%\n", "  of them > 1 unit deep", 100 * share(sh.inSolidDeep, sh.corners),
                100 * share(rc.inSolidDeep, rc.corners));
    std::printf("%-34s %14.2f %14.2f\n", "  deepest, units", sh.deepest, rc.deepest);
    if (rc.deepest > kSolidTolerance)
        std::printf("  (Recast's deepest at %.1f %.1f %.1f)\n", rc.deepestAt.x(), rc.deepestAt.y(), rc.deepestAt.z());
    std::printf("%-34s %13.2f%% %13.2f%%\n", "corners floating (no floor in 2)", 100 * share(sh.floating, sh.corners),
                100 * share(rc.floating, rc.corners));
    auto gapShare = [](const std::vector<double>& g, double over) {
        return g.empty() ? 0.0 : double(std::count_if(g.begin(), g.end(), [&](double x) { return x > over; })) / double(g.size());
    };
    std::printf("%-34s %14.2f %14.2f\n", "  median height above floor", median(sh.gaps), median(rc.gaps));
    std::printf("%-34s %13.2f%% %13.2f%%\n", "  above floor > 4 (ch)", 100 * gapShare(sh.gaps, 4), 100 * gapShare(rc.gaps, 4));
    std::printf("%-34s %13.2f%% %13.2f%%\n", "  above floor > 8 (2 ch)", 100 * gapShare(sh.gaps, 8), 100 * gapShare(rc.gaps, 8));
    std::printf("Detour's corners: %ld of %ld moved more than 0.01 by getPolyHeight (onto the detail mesh)\n", rc.snappedMoved,
                rc.corners);
    std::printf("%-34s %14.1f %14.1f\n", "path query median, us", median(sh.micros), median(rc.micros));
    if (qEnvironmentVariableIsSet("NAV_VS_RECAST_DEBUG")) {
        std::sort(worst.begin(), worst.end(), [](const Worst& x, const Worst& y) { return x.ratio > y.ratio; });
        for (size_t i = 0; i < worst.size() && i < 8; ++i)
            std::printf("  ratio %.3f: (%.0f %.0f %.0f) -> (%.0f %.0f %.0f): Shallot %.0f in %zu points, Recast %.0f in %zu, straight %.0f\n",
                        worst[i].ratio, worst[i].a.x(), worst[i].a.y(), worst[i].a.z(), worst[i].b.x(), worst[i].b.y(), worst[i].b.z(),
                        worst[i].shallotLength, worst[i].shallotPoints, worst[i].recastLength, worst[i].recastPoints, worst[i].straight);
        for (size_t i = 0; i < worst.size() && i < 2; ++i) {
            std::printf("   Shallot:");
            for (const Vec3& p : worst[i].shallot) std::printf(" (%.1f %.1f %.1f)", p.x(), p.y(), p.z());
            std::printf("\n   Recast:");
            for (const Vec3& p : worst[i].recast) std::printf(" (%.1f %.1f %.1f)", p.x(), p.y(), p.z());
            std::printf("\n");
        }
    }
    for (const Vec3& p : sh.invalidExamples)
        std::printf("  Shallot corner invalid at (%.3f %.3f %.3f): overlap %.4f, lowered %.4f\n", p.x(), p.y(), p.z(), brute.overlap(p),
                    brute.overlap(p - Vec3(0, 0, kFloatTolerance)));

    const QJsonObject json{
        {"level", QString::fromStdString(level.name)},
        {"pairs", opt.pairs},
        {"runs", opt.runs},
        {"recast_cs", double(opt.recast.cs)},
        {"recast_ch", double(opt.recast.ch)},
        {"compile_ms_all_poses", level.msCompile},
        {"compile_ms_player_only", level.msCompilePlayerOnly},
        {"recast_input_triangles", soup.triCount()},
        {"recast_input", opt.visibleFaces ? "visible faces" : "brush faces"},
        {"recast_input_ms", msTriangles},
        {"shallot", QJsonObject{{"build_ms", shMs},
                                {"polygons", qint64(mesh.polygons.size())},
                                {"area", mesh.area},
                                {"found", sh.found},
                                {"mean_length", mean(sh.lengths)},
                                {"corners", qint64(sh.corners)},
                                {"corners_in_solid", qint64(sh.inSolid)},
                                {"corners_floating", qint64(sh.floating)},
                                {"deepest", sh.deepest},
                                {"median_height_above_floor", median(sh.gaps)},
                                {"path_median_us", median(sh.micros)}}},
        {"recast", QJsonObject{{"build_ms", rcMs},
                               {"polygons", recast.pmesh->npolys},
                               {"area", recastArea},
                               {"area_inside", recastAreaInside},
                               {"area_outside", recastAreaVoid},
                               {"area_in_solid", recastAreaSolid},
                               {"found", rc.found},
                               {"mean_length", mean(rc.lengths)},
                               {"corners", qint64(rc.corners)},
                               {"corners_in_solid", qint64(rc.inSolid)},
                               {"corners_in_solid_over_1", qint64(rc.inSolidDeep)},
                               {"corners_floating", qint64(rc.floating)},
                               {"corners_moved_by_detail_height", qint64(rc.snappedMoved)},
                               {"corners_above_floor_over_8", qint64(std::count_if(rc.gaps.begin(), rc.gaps.end(), [](double g) { return g > 8; }))},
                               {"deepest", rc.deepest},
                               {"median_height_above_floor", median(rc.gaps)},
                               {"path_median_us", median(rc.micros)}}},
        {"agreement", QJsonObject{{"both", both}, {"only_shallot", onlyShallot}, {"only_recast", onlyRecast}, {"neither", neither}}},
        {"inside_agreement", QJsonObject{{"pairs", insidePairs}, {"both", insideBoth}, {"only_shallot", insideOnlyShallot},
                                         {"only_recast", insideOnlyRecast}, {"neither", insideNeither}}},
        {"only_shallot_dropping", onlyShallotDropping},
        {"shallot_samples_off_recast", shallotSamplesOffRecast},
        {"recast_samples_off_shallot", recastSamplesOffShallot},
        {"both_mean_length_shallot", mean(bothShallotLen)},
        {"both_mean_length_recast", mean(bothRecastLen)},
        {"mean_length_ratio", mean(ratios)},
        {"median_length_ratio", median(ratios)},
        {"mean_xy_length_ratio", mean(ratiosXY)},
        {"median_xy_length_ratio", median(ratiosXY)}};
    std::printf("%s\n", QJsonDocument(json).toJson(QJsonDocument::Compact).constData());
    if (qEnvironmentVariableIsSet("NAV_VS_RECAST_DEBUG")) {
        // Recast's largest polygons inside the level where Shallot has no walkable polygon.
        std::vector<std::pair<double, Vec3>> unmatched;
        for (const std::vector<Vec3>& poly : recastPolygons(recast)) {
            Vec3 c = Vec3::Zero();
            for (const Vec3& v : poly) c += v / double(poly.size());
            c.z() += kFeetBelowReference;
            const Landing l = dropToFloor(tree, mesh, c + Vec3(0, 0, kShallotQueryLift));
            if (!inside(c) || (l.landed && l.polygon >= 0)) continue;
            double area = 0;
            for (size_t k = 1; k + 1 < poly.size(); ++k) area += 0.5 * (poly[k] - poly[0]).cross(poly[k + 1] - poly[0]).norm();
            unmatched.push_back({area, c});
        }
        std::sort(unmatched.begin(), unmatched.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
        double total = 0;
        for (const auto& u : unmatched) total += u.first;
        std::printf("Recast polygons inside the level with no Shallot polygon under their centre: %zu, %.0f units^2\n", unmatched.size(), total);
        for (size_t i = 0; i < unmatched.size() && i < 6; ++i) {
            const Vec3& c = unmatched[i].second;
            const Landing l = dropToFloor(tree, mesh, c + Vec3(0, 0, kShallotQueryLift));
            std::printf("  %.0f units^2 at (%.0f %.0f %.0f): box %s, lands %d at z %.1f on polygon %d (normal z %.2f)\n", unmatched[i].first,
                        c.x(), c.y(), c.z(), brute.inSolid(c) ? "in solid" : "clear", int(l.landed), l.point.z(), l.polygon, l.normal.z());
        }
    }
    if (picture && !opt.image.empty())
        writePicture(opt.image, level.name, mesh, recast, opt.recast, [&](const Vec3& p) { return int(where(p)); });
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv); // fonts for the picture's titles
    Options opt;
    opt.image = std::string(SHALLOT_SOURCE_DIR) + "/docs/images/nav_vs_recast_e1m1.png";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--pairs") opt.pairs = std::max(2, std::atoi(next().c_str()));
        else if (a == "--runs") opt.runs = std::max(1, std::atoi(next().c_str()));
        else if (a == "--cs") opt.recast.cs = std::strtof(next().c_str(), nullptr);
        else if (a == "--ch") opt.recast.ch = std::strtof(next().c_str(), nullptr);
        else if (a == "--image") opt.image = next();
        else if (a == "--no-image") opt.image.clear();
        else if (a == "--visible-faces") opt.visibleFaces = true;
        else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "usage: nav_vs_recast [--pairs N] [--runs N] [--cs C] [--ch H] [--image OUT.png | --no-image] [--visible-faces] [MAP...]\n");
            return 2;
        } else opt.maps.push_back(a);
    }
    if (opt.maps.empty())
        for (const char* name : {"id_e1m1.map", "librequake_e3m4.map"})
            opt.maps.push_back(std::string(SHALLOT_SOURCE_DIR) + "/../shared/maps/" + name);
    bool ok = true;
    for (size_t i = 0; i < opt.maps.size(); ++i) ok = runLevel(opt.maps[i], opt, i == 0) && ok;
    return ok ? 0 : 1;
}
