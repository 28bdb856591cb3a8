#include "edit/brush_operations.h"

#include "world/brush_geometry.h"
#include "world/map_points.h"
#include "world/world.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace shallot {

namespace {

// A ray is parallel to a plane when its direction's component along the normal is below
// this fraction of the direction's length.
constexpr double kRayParallel = 1e-12;

// A 2D clip line shorter than this across the view axis (world units) defines no plane.
constexpr double kMinClipLineLength = 1e-6;

// Standard Quake texture parameters (x/y offset, rotation, x/y scale) for new brushes.
constexpr const char* kDefaultTextureParams = "0 0 0 1 1";

void setReason(std::string* reason, std::string message) {
    if (reason) *reason = std::move(message);
}

BrushGeometryResult geometryOf(const Brush& brush) { return buildBrushGeometry(brush, defaultWorldBounds()); }


// Gives .map points to the sides flagged in `recompute` and to those without points.
void assignPoints(Brush& brush, const ConvexPolyhedron& hull, const std::vector<bool>& recompute) {
    for (const ConvexFace& f : hull.faces) {
        BrushSide& side = brush.sides[size_t(f.tag)];
        if (side.hasPoints && !recompute[size_t(f.tag)]) continue;
        side.points = facePoints(side.plane, f.polygon);
        side.hasPoints = true;
    }
}

// Points for the sides that have none, when the brush is valid (transforms of brushes
// built from planes).
void fillMissingPoints(Brush& brush) {
    if (std::all_of(brush.sides.begin(), brush.sides.end(), [](const BrushSide& s) { return s.hasPoints; })) return;
    const BrushGeometryResult g = geometryOf(brush);
    if (g.geometry) assignPoints(brush, g.geometry->hull, std::vector<bool>(brush.sides.size(), false));
}

// Makes every side that has a face on `hull` one thing with its points (settleSideOnPoints):
// what the operation leaves is what a .map export writes and reads back.
void settleSides(Brush& brush, const ConvexPolyhedron& hull) {
    for (const ConvexFace& f : hull.faces) settleSideOnPoints(brush.sides[size_t(f.tag)], f.polygon);
}

// After a rigid move of planes and points together (translated, rotated90, flipped): points
// for the sides that have none, then every plane from its points, without integer noise.
void settleMovedSides(Brush& brush) {
    fillMissingPoints(brush);
    for (BrushSide& side : brush.sides)
        if (side.hasPoints) settleSideOnPoints(side, Polygon{});
}

// The final step of every operation that changes planes: checks the candidate, recomputes
// the points of the `changed` sides, settles every plane on its points and drops the sides
// that contribute no face.
std::optional<Brush> validated(Brush candidate, const std::vector<bool>& changed, std::string* reason) {
    const BrushGeometryResult g = geometryOf(candidate);
    if (!g.geometry) {
        setReason(reason, "the result " + g.error);
        return std::nullopt;
    }
    assignPoints(candidate, g.geometry->hull, changed);
    settleSides(candidate, g.geometry->hull);
    // Settling moves planes by rounding only; the faces are taken from the settled brush.
    const BrushGeometryResult settled = geometryOf(candidate);
    if (!settled.geometry) {
        setReason(reason, "the result " + settled.error);
        return std::nullopt;
    }
    std::vector<bool> hasFace(candidate.sides.size(), false);
    for (const ConvexFace& f : settled.geometry->hull.faces) hasFace[size_t(f.tag)] = true;
    Brush out = std::move(candidate);
    std::vector<BrushSide> sides = std::move(out.sides);
    out.sides.clear();
    for (size_t i = 0; i < sides.size(); ++i)
        if (hasFace[i]) out.sides.push_back(std::move(sides[i]));
    // Dropping sides without a face leaves the hull unchanged; check anyway.
    const BrushGeometryResult check = geometryOf(out);
    if (!check.geometry) {
        setReason(reason, "the result " + check.error);
        return std::nullopt;
    }
    return out;
}

// The brush with `extra` sides added (their points computed).
Brush withSides(const Brush& brush, const std::vector<BrushSide>& extra, std::vector<bool>& changed) {
    Brush out = brush;
    changed.assign(brush.sides.size(), false);
    for (const BrushSide& s : extra) {
        out.sides.push_back(s);
        changed.push_back(!hasValidPoints(s));
    }
    return out;
}

BrushSide newSide(const Plane& plane, const std::string& texture, const std::string& textureParams) {
    BrushSide s;
    s.plane = plane;
    s.texture = texture;
    s.textureParams = textureParams;
    return s;
}

// A new side on `side`'s plane (flipped when `flip`), with its texture and, when they are
// valid, its points (reversed when flipped: Quake's order then gives the opposite normal).
BrushSide sideLike(const BrushSide& side, bool flip) {
    BrushSide s = newSide(flip ? side.plane.flipped() : side.plane, side.texture, side.textureParams);
    if (hasValidPoints(side)) {
        s.points = side.points;
        if (flip) std::swap(s.points[0], s.points[2]);
        s.hasPoints = true;
    }
    return s;
}

// A new side on `plane` textured like the brush side facing most nearly the same way, with
// `points` when given.
BrushSide capSide(const Brush& brush, const Plane& plane, const std::array<Vec3, 3>* points) {
    const BrushSide* style = nullptr;
    for (const BrushSide& s : brush.sides)
        if (!style || s.plane.normal.dot(plane.normal) > style->plane.normal.dot(plane.normal)) style = &s;
    BrushSide cap = style ? newSide(plane, style->texture, style->textureParams) : newSide(plane, {}, {});
    if (points) {
        cap.points = *points;
        cap.hasPoints = true;
    }
    return cap;
}

// clipBrush, with the cap's points (for the back part's cap; the front's is reversed).
ClipResult clip(const Brush& brush, const Plane& plane, const std::array<Vec3, 3>* points) {
    ClipResult out;
    const double len = plane.normal.norm();
    if (!plane.isFinite() || !(len > 0.0)) {
        out.error = "the clip plane is invalid";
        return out;
    }
    // A plane with points is the one Plane::fromPoints gives them, as a .map reader reads
    // it: kept bit for bit (normalizing again could move it by an ulp).
    const Plane p = points ? plane : Plane{plane.normal / len, plane.dist / len};
    const BrushGeometryResult g = geometryOf(brush);
    if (!g.geometry) {
        out.error = "the brush " + g.error;
        return out;
    }
    std::array<Vec3, 3> reversed{};
    if (points) reversed = {(*points)[2], (*points)[1], (*points)[0]};
    std::vector<bool> changed;
    const Brush back = withSides(brush, {capSide(brush, p, points)}, changed);
    out.back = validated(back, changed, nullptr);
    const Brush front = withSides(brush, {capSide(brush, p.flipped(), points ? &reversed : nullptr)}, changed);
    out.front = validated(front, changed, nullptr);
    return out;
}

// The sides of `brush` mapped by x -> pivot + linear(x - pivot), with `linear` orthogonal
// (a rotation or mirror: normals map by `linear` too). Mirrors reverse the point order.
template <typename Linear>
Brush transformed(const Brush& brush, const Vec3& pivot, bool mirror, Linear linear) {
    Brush out = brush;
    for (BrushSide& s : out.sides) {
        const Vec3 n = linear(s.plane.normal);
        // n' . (pivot + L(x - pivot)) = n . x - n . pivot + n' . pivot
        s.plane.dist = s.plane.dist - s.plane.normal.dot(pivot) + n.dot(pivot);
        s.plane.normal = n;
        for (Vec3& p : s.points) p = pivot + linear(Vec3(p - pivot));
        if (mirror) std::swap(s.points[0], s.points[2]);
    }
    settleMovedSides(out);
    return out;
}

struct RayHit {
    double t;
    int side;
};

std::optional<RayHit> castRay(const Brush& brush, const Vec3& origin, const Vec3& dir) {
    const double len = dir.norm();
    if (!origin.allFinite() || !dir.allFinite() || !(len > 0.0)) return std::nullopt;
    double tEnter = -std::numeric_limits<double>::infinity();
    double tExit = std::numeric_limits<double>::infinity();
    int side = -1;
    for (size_t i = 0; i < brush.sides.size(); ++i) {
        const Plane& p = brush.sides[i].plane;
        if (!p.isFinite()) return std::nullopt;
        const double along = p.normal.dot(dir);
        const double d = p.signedDistance(origin);
        if (std::abs(along) <= kRayParallel * len) {
            if (d > 0.0) return std::nullopt; // parallel and outside
            continue;
        }
        const double t = -d / along;
        if (along < 0.0) {
            if (t > tEnter) {
                tEnter = t;
                side = int(i);
            }
        } else {
            tExit = std::min(tExit, t);
        }
    }
    if (side < 0 || tEnter < 0.0 || tEnter > tExit) return std::nullopt;
    return RayHit{tEnter, side};
}

} // namespace

Brush translated(const Brush& brush, const Vec3& delta) {
    Brush out = brush;
    for (BrushSide& s : out.sides) {
        s.plane.dist += s.plane.normal.dot(delta);
        for (Vec3& p : s.points) p += delta;
    }
    settleMovedSides(out);
    return out;
}

std::optional<Brush> withFaceMoved(const Brush& brush, int side, double distance, std::string* reason) {
    if (side < 0 || size_t(side) >= brush.sides.size()) {
        setReason(reason, "no side " + std::to_string(side));
        return std::nullopt;
    }
    if (!std::isfinite(distance)) {
        setReason(reason, "the distance is not finite");
        return std::nullopt;
    }
    Brush moved = brush;
    moved.sides[size_t(side)].plane.dist += distance;
    std::vector<bool> changed(brush.sides.size(), false);
    changed[size_t(side)] = true;
    return validated(std::move(moved), changed, reason);
}

std::optional<Brush> boxBrush(const Vec3& mins, const Vec3& maxs, const std::string& texture, std::string* reason) {
    if (!mins.allFinite() || !maxs.allFinite() || !(mins.array() < maxs.array()).all()) {
        setReason(reason, "the box has a zero or negative size");
        return std::nullopt;
    }
    Brush box = Brush::box(mins, maxs);
    for (BrushSide& s : box.sides) {
        s.texture = texture;
        s.textureParams = kDefaultTextureParams;
    }
    return validated(std::move(box), std::vector<bool>(6, true), reason);
}

Aabb bounds(const Brush& brush) {
    const BrushGeometryResult g = geometryOf(brush);
    return g.geometry ? g.geometry->bounds : Aabb{};
}

std::optional<Brush> withBounds(const Brush& brush, const Aabb& newBounds, std::string* reason) {
    if (!newBounds.mins.allFinite() || !newBounds.maxs.allFinite() ||
        !(newBounds.mins.array() < newBounds.maxs.array()).all()) {
        setReason(reason, "the new bounds have a zero or negative size");
        return std::nullopt;
    }
    const BrushGeometryResult g = geometryOf(brush);
    if (!g.geometry) {
        setReason(reason, "the brush " + g.error);
        return std::nullopt;
    }
    const Aabb& old = g.geometry->bounds;
    if (newBounds.mins == old.mins && newBounds.maxs == old.maxs) return brush; // a drag back where it started
    const Vec3 oldSize = old.maxs - old.mins;
    const Vec3 scale = (newBounds.maxs - newBounds.mins).cwiseQuotient(oldSize);
    // lerp is exact at both ends, so box faces land exactly on the new bounds.
    auto map = [&](const Vec3& x) {
        Vec3 y;
        for (int a = 0; a < 3; ++a) y[a] = std::lerp(newBounds.mins[a], newBounds.maxs[a], (x[a] - old.mins[a]) / oldSize[a]);
        return y;
    };
    // Sides without a face are dropped: an affine map keeps them redundant.
    Brush out = brush;
    out.sides.clear();
    std::vector<bool> changed;
    for (const ConvexFace& f : g.geometry->hull.faces) {
        const BrushSide& before = brush.sides[size_t(f.tag)];
        out.sides.push_back(before);
        changed.push_back(false);
        BrushSide& side = out.sides.back();
        // The side's points mapped: an affine map takes planes to planes, so the plane through
        // them is the old plane's image, to the rounding of the map (exact for the axial
        // sides, which lie on the old bounds and go to the new ones).
        if (hasValidPoints(before)) {
            for (size_t k = 0; k < 3; ++k) side.points[k] = withoutIntegerNoise(map(before.points[k]));
            if (const auto p = Plane::fromPoints(side.points[0], side.points[1], side.points[2])) {
                side.plane = *p;
                continue;
            }
        }
        changed.back() = true;
        Plane& plane = side.plane;
        if (plane.axis() >= 0) { // axial: the normal is unchanged, the face's coordinate moves
            plane.dist = plane.normal.dot(map(f.polygon.vertices[0]));
        } else {
            // Normals map by the inverse transpose of diag(scale).
            plane.normal = plane.normal.cwiseQuotient(scale).normalized();
            double sum = 0.0;
            for (const Vec3& v : f.polygon.vertices) sum += plane.normal.dot(map(v));
            plane.dist = sum / double(f.polygon.vertices.size());
        }
    }
    return validated(std::move(out), changed, reason);
}

ClipResult clipBrush(const Brush& brush, const Plane& plane) { return clip(brush, plane, nullptr); }

ClipResult clipBrushThrough(const Brush& brush, const std::array<Vec3, 3>& points) {
    const std::optional<Plane> plane = Plane::fromPoints(points[0], points[1], points[2]);
    if (!plane) {
        ClipResult out;
        out.error = "the clip points are collinear or not finite";
        return out;
    }
    return clip(brush, *plane, &points);
}

std::optional<Plane> planeFromPoints(const Vec3& a, const Vec3& b, const Vec3& c) { return Plane::fromPoints(a, b, c); }

std::optional<Plane> planeThroughLine(const Vec3& a, const Vec3& b, int viewAxis) {
    if (viewAxis < 0 || viewAxis > 2 || !a.allFinite() || !b.allFinite()) return std::nullopt;
    const Vec3 n = (b - a).cross(Vec3::Unit(viewAxis));
    const double len = n.norm(); // the length of ab across the view axis
    if (!(len > kMinClipLineLength)) return std::nullopt;
    Plane p;
    p.normal = n / len;
    p.dist = p.normal.dot(a);
    return p;
}

std::optional<std::array<Vec3, 3>> pointsThroughLine(const Vec3& a, const Vec3& b, int viewAxis) {
    if (!planeThroughLine(a, b, viewAxis)) return std::nullopt;
    // Quake's normal (p0 - p1) x (p2 - p1) = (b - a) x (kClipPointDepth axis): planeThroughLine's
    // scaled by a power of two; its distance is taken at the middle point, a, as there.
    const std::array<Vec3, 3> points{b, a, a + kClipPointDepth * Vec3::Unit(viewAxis)};
    if (!Plane::fromPoints(points[0], points[1], points[2])) return std::nullopt;
    return points;
}

std::vector<Brush> subtractBrush(const Brush& from, const Brush& cutter, std::string* reason) {
    const BrushGeometryResult fg = geometryOf(from);
    if (!fg.geometry) {
        setReason(reason, "the brush " + fg.error);
        return {};
    }
    const BrushGeometryResult cg = geometryOf(cutter);
    if (!cg.geometry) {
        setReason(reason, "the cutter " + cg.error);
        return {};
    }
    if (!fg.geometry->bounds.overlaps(cg.geometry->bounds)) return {from};

    // Piece k: `from`, behind cutter planes 0..k-1 and in front of plane k. What is left
    // behind all of them is from & cutter, which is dropped.
    std::vector<Brush> pieces;
    std::vector<BrushSide> behind;
    std::vector<bool> changed;
    for (const ConvexFace& f : cg.geometry->hull.faces) {
        const BrushSide& c = cutter.sides[size_t(f.tag)];
        std::vector<BrushSide> sides = behind;
        sides.push_back(sideLike(c, true));
        if (std::optional<Brush> piece = validated(withSides(from, sides, changed), changed, nullptr))
            pieces.push_back(std::move(*piece));
        behind.push_back(sideLike(c, false));
        // Nothing left behind this plane: the brushes do not overlap (or only touch).
        if (!geometryOf(withSides(from, behind, changed)).geometry) return {from};
    }
    return pieces;
}

std::vector<Brush> hollowBrush(const Brush& brush, double wallThickness, std::string* reason) {
    if (!std::isfinite(wallThickness) || !(wallThickness > 0.0)) {
        setReason(reason, "the wall thickness must be positive");
        return {};
    }
    const BrushGeometryResult g = geometryOf(brush);
    if (!g.geometry) {
        setReason(reason, "the brush " + g.error);
        return {};
    }
    Brush inner = brush;
    for (BrushSide& s : inner.sides) {
        s.plane.dist -= wallThickness;
        s.hasPoints = false; // computed for the walls' faces (integral when the plane allows)
    }
    if (!geometryOf(inner).geometry) {
        setReason(reason, "the brush is too thin for walls of " + std::to_string(wallThickness));
        return {};
    }
    return subtractBrush(brush, inner, reason);
}

Brush rotated90(const Brush& brush, int axis, const Vec3& pivot, bool clockwise) {
    if (axis < 0 || axis > 2) return brush;
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    return transformed(brush, pivot, false, [&](const Vec3& x) {
        Vec3 y = x;
        y[u] = clockwise ? x[v] : -x[v];
        y[v] = clockwise ? -x[u] : x[u];
        return y;
    });
}

Brush flipped(const Brush& brush, int axis, const Vec3& pivot) {
    if (axis < 0 || axis > 2) return brush;
    return transformed(brush, pivot, true, [&](const Vec3& x) {
        Vec3 y = x;
        y[axis] = -x[axis];
        return y;
    });
}

std::optional<double> rayHitBrush(const Brush& brush, const Vec3& origin, const Vec3& dir) {
    const std::optional<RayHit> hit = castRay(brush, origin, dir);
    return hit ? std::optional<double>(hit->t) : std::nullopt;
}

int pickFace(const Brush& brush, const Vec3& origin, const Vec3& dir) {
    const std::optional<RayHit> hit = castRay(brush, origin, dir);
    return hit ? hit->side : -1;
}

} // namespace shallot
