#pragma once
// The geometry of the editor's brush tools: move, resize, clip, subtract, hollow, rotate,
// mirror and pick. Every operation returns valid convex brushes (buildBrushGeometry
// accepts them within the default world bounds) or nothing, with a reason when asked.
//
// Common rules of the results:
// - surviving sides keep their texture, textureParams and line; sides that no longer
//   contribute a face are dropped, so side indices may shift;
// - sides whose plane did not change keep their points, bit for bit; new sides made from a
//   side that has points (a cutter's side in subtractBrush, a clip by clipBrushThrough) take
//   them (in reverse order when the plane is flipped); translated, rotated90 and flipped
//   move the points with the planes (exactly for grid steps and grid pivots), withBounds
//   maps them (an affine map takes the plane through them to the resized plane);
// - every other side whose plane changed (and every side that had no .map points) gets
//   three .map points from its plane and face polygon (facePoints, world/map_points.h);
// - then every side is settled on its points (settleSideOnPoints): integral points of its
//   face replace non-integral ones where there are any, coordinates within
//   kIntegerSnapDistance of an integer become it, and the plane is the one Plane::fromPoints
//   gives the points, as a .map reader reads it. So an exported result reads back bit for
//   bit, a side on the grid is written with integers, and no coordinate carries float
//   noise (issue #37: "1.1607426131376997e-10" for 0 after a resize).
#include "geometry/aabb.h"
#include "geometry/plane.h"
#include "world/brush.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace shallot {

// The brush moved by `delta`: planes exactly (dist += n . delta), points moved with them.
Brush translated(const Brush& brush, const Vec3& delta);

// The resize-by-face tool: side `side` pushed `distance` along its outward normal
// (negative: inward). Fails when the index is out of range or the brush would be invalid.
std::optional<Brush> withFaceMoved(const Brush& brush, int side, double distance,
                                   std::string* reason = nullptr);

// The box [mins, maxs] with `texture` on every side (standard Quake texture parameters
// "0 0 0 1 1"). Fails for a zero or negative size, or coordinates beyond the world.
std::optional<Brush> boxBrush(const Vec3& mins, const Vec3& maxs, const std::string& texture,
                              std::string* reason = nullptr);

// The bounds of the brush's vertices; an empty Aabb when the brush is invalid.
Aabb bounds(const Brush& brush);

// The brush scaled (per axis, affinely) so that its bounds become `newBounds`: exact for
// boxes. Vertices map by x' = lerp(new.min, new.max, (x - old.min) / old.size) and plane
// normals by the inverse transpose. The brush itself when the bounds are its own. Fails for
// an invalid brush or empty/degenerate bounds.
std::optional<Brush> withBounds(const Brush& brush, const Aabb& newBounds, std::string* reason = nullptr);

// The two parts of a brush cut by a plane: `front` where normal . x > dist, `back` behind.
// A part that would be empty (the plane misses the brush) is empty; both are empty, with
// `error`, for an invalid brush or plane. The new cap side takes the texture of the brush
// side whose normal is closest to the cap's.
struct ClipResult {
    std::optional<Brush> front, back;
    std::string error;
};
ClipResult clipBrush(const Brush& brush, const Plane& plane);
// clipBrush by the plane through three points (planeFromPoints), whose cap sides carry those
// points (the front part's in reverse order), so a .map writes them verbatim.
ClipResult clipBrushThrough(const Brush& brush, const std::array<Vec3, 3>& points);

// The clip tool's planes. Three points, Quake's convention: normal = (a - b) x (c - b).
std::optional<Plane> planeFromPoints(const Vec3& a, const Vec3& b, const Vec3& c);
// For the 2D views: the plane containing the segment ab and the view axis (0, 1, 2), with
// normal (b - a) x axis: to the right of a -> b seen with the axis pointing at the viewer.
// Fails when ab is (nearly) parallel to the axis or not finite.
std::optional<Plane> planeThroughLine(const Vec3& a, const Vec3& b, int viewAxis);
// Three points of that plane for clipBrushThrough: b, a, and a moved kClipPointDepth along
// the view axis. planeFromPoints of them is planeThroughLine(a, b, viewAxis) bit for bit
// when a[viewAxis] + kClipPointDepth is exact (integral a, any grid point); on the grid
// they are grid points. Empty when planeThroughLine is.
inline constexpr double kClipPointDepth = 64.0; // a power of two: scales the normal exactly
std::optional<std::array<Vec3, 3>> pointsThroughLine(const Vec3& a, const Vec3& b, int viewAxis);

// CSG subtract: the parts of `from` outside `cutter`, as disjoint convex pieces (`from`
// split successively by the cutter's planes, keeping the front parts). Returns {from}
// unchanged when they do not overlap, {} when `cutter` swallows `from`, and {} with a
// reason when either brush is invalid (reason is left untouched on success).
std::vector<Brush> subtractBrush(const Brush& from, const Brush& cutter, std::string* reason = nullptr);

// The brush made hollow: walls of `wallThickness` (every plane moved inward by it), as
// the pieces of subtracting the shrunk brush. Empty, with a reason, when the thickness is
// not positive or the brush is too thin for it.
std::vector<Brush> hollowBrush(const Brush& brush, double wallThickness, std::string* reason = nullptr);

// Rotated by 90 degrees about the line through `pivot` along `axis` (0, 1, 2):
// counter-clockwise seen from the positive end of the axis, clockwise when `clockwise`.
// Exact for integral coordinates. An axis out of range returns the brush unchanged.
Brush rotated90(const Brush& brush, int axis, const Vec3& pivot, bool clockwise);

// Mirrored across the plane x[axis] = pivot[axis]; point order is reversed so that the
// normals stay outward. An axis out of range returns the brush unchanged.
Brush flipped(const Brush& brush, int axis, const Vec3& pivot);

// 3D picking: the ray parameter t >= 0 (in units of `dir`) where origin + t dir enters the
// brush, or empty when it misses, starts inside or is not finite.
std::optional<double> rayHitBrush(const Brush& brush, const Vec3& origin, const Vec3& dir);
// The side the ray enters through, or -1.
int pickFace(const Brush& brush, const Vec3& origin, const Vec3& dir);

} // namespace shallot
