#include "query/shifted_plane_comparison.h"

#include "query/round_pose_world.h"
#include "query/round_shape_overlap.h"
#include "query/round_shape_trace.h"
#include "query/shifted_plane_shape.h"

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>
#include <tuple>

namespace shallot {

namespace {

struct ComparedBrush {
    RoundBrush exact;
    ShiftedPlaneBrush shifted;
};

// The exact clearance (world units) of the shape at p from the nearest brush whose moved
// planes' box holds p grown by `reach`, and the moved planes' deepest hold on p.
struct PlaceAnswer {
    double clearance = std::numeric_limits<double>::infinity();
    double depth = -std::numeric_limits<double>::infinity();
};

class Comparer {
public:
    Comparer(const World& world, const Pose& pose) : shape_(pose.shape), frame_(RoundShapeFrame::of(pose.shape)) {
        for (const Brush& brush : world.brushes) {
            if (!blocks(brush, pose)) continue;
            const BrushGeometryResult built = buildBrushGeometry(brush, world.bounds);
            if (!built.geometry) continue;
            brushes_.push_back({RoundBrush::of(*built.geometry, frame_), shiftPlanes(*built.geometry, shape_)});
            levelBox_.add(built.geometry->bounds);
        }
    }

    PlaceAnswer answer(const Vec3& p, double reach) const {
        PlaceAnswer a;
        const Vec3 centre = frame_.toShape(p);
        for (const ComparedBrush& b : brushes_) {
            if (!b.shifted.bounds.contains(p, reach)) continue;
            a.clearance = std::min(a.clearance, roundShapeClearance(frame_, b.exact, centre) / frame_.shapePerWorld);
            a.depth = std::max(a.depth, shiftedPlaneDepth(b.shifted, p));
        }
        return a;
    }

    const Aabb& levelBox() const { return levelBox_; }
    int count() const { return int(brushes_.size()); }

private:
    PoseShape shape_;
    RoundShapeFrame frame_;
    std::vector<ComparedBrush> brushes_;
    Aabb levelBox_;
};

// The median and the largest of `values` (0 when empty).
std::pair<double, double> medianAndMax(std::vector<double>& values) {
    if (values.empty()) return {0.0, 0.0};
    const auto middle = values.begin() + std::ptrdiff_t(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return {*middle, *std::max_element(values.begin(), values.end())};
}

void finish(ShiftedPlaneTally& tally, const std::vector<ShiftedPlaneRefusal>& refused) {
    std::vector<double> depths, rooms;
    for (const ShiftedPlaneRefusal& r : refused) {
        depths.push_back(r.depth);
        rooms.push_back(r.room);
    }
    std::tie(tally.medianDepth, tally.maxDepth) = medianAndMax(depths);
    std::tie(tally.medianRoom, tally.maxRoom) = medianAndMax(rooms);
}

} // namespace

ShiftedPlaneComparison compareShiftedPlanes(const World& world, const Pose& pose,
                                            const ShiftedPlaneComparisonSettings& settings) {
    if (!pose.shape.isRound()) throw std::invalid_argument("pose " + pose.name + " is a box, not a round shape");
    if (const std::string problem = poseShapeProblem(pose.shape); !problem.empty())
        throw std::invalid_argument(problem);
    const Comparer comparer(world, pose);
    const RoundPoseWorld exact(world, pose);
    const double beside = settings.besideDistance >= 0 ? settings.besideDistance : pose.shape.radius;
    const double band = kRoundContactBand;

    ShiftedPlaneComparison result;
    result.blockingBrushes = comparer.count();
    if (comparer.levelBox().empty()) return result;
    std::mt19937_64 random(settings.seed);
    const Aabb box = comparer.levelBox();
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<ShiftedPlaneRefusal> refusedBeside, refusedResting;
    for (int i = 0; i < settings.samples; ++i) {
        const Vec3 p = box.mins + (box.maxs - box.mins).cwiseProduct(Vec3(unit(random), unit(random), unit(random)));
        const PlaceAnswer here = comparer.answer(p, beside);
        if (here.clearance < -band) {
            if (here.depth <= 0.0) ++result.supersetViolations;
            continue;
        }
        if (here.clearance <= beside) {
            ++result.beside.places;
            if (here.depth > band) {
                ++result.beside.refused;
                refusedBeside.push_back({p, here.depth, std::max(0.0, here.clearance), false});
            }
        }
        if (here.clearance <= band) continue; // a drop must start clear of the band
        const TraceResult drop = exact.trace(p, p - kRestingDropDistance * Vec3::UnitZ());
        if (!drop.hit || drop.startSolid || drop.normal.z() < kRestingFloorNz) continue;
        const PlaceAnswer rest = comparer.answer(drop.point, 0.0);
        ++result.resting.places;
        if (rest.depth > band) {
            ++result.resting.refused;
            refusedResting.push_back({drop.point, rest.depth, 0.0, true});
        }
    }
    finish(result.beside, refusedBeside);
    finish(result.resting, refusedResting);
    for (const auto* refused : {&refusedBeside, &refusedResting})
        for (const ShiftedPlaneRefusal& r : *refused)
            if (int(result.refusals.size()) < settings.keepRefusals) result.refusals.push_back(r);
    return result;
}

} // namespace shallot
