// Round poses in the runtime (<shallot/runtime.h>: RoundPose, withRoundPoses): each
// answered exactly against the level's brushes (query/round_pose_world.h).
#include "runtime/runtime_results.h"
#include "runtime/tree_impl.h"

#include "io/game_profile.h"
#include "world/pose_shape.h"

namespace shallot::runtime {

const RoundPoseWorld* Tree::Impl::roundPose(int pose) const {
    const size_t first = tree.poses.size();
    if (!round || pose < 0 || size_t(pose) < first || size_t(pose) - first >= round->exact.size()) return nullptr;
    return round->exact[size_t(pose) - first].get();
}

const PlacedMoveSpaces* Tree::Impl::roundSpace(int pose) const {
    const size_t first = tree.poses.size();
    if (!round || pose < 0 || size_t(pose) < first || size_t(pose) - first >= roundWithMovers.size()) return nullptr;
    return roundWithMovers[size_t(pose) - first].get();
}

Result<RoundPose> RoundPose::parse(std::string name, std::string_view shape) {
    Result<RoundPose> r;
    const PoseShapeParse parsed = parsePoseShape(shape);
    if (!parsed.shape) {
        r.error = parsed.error;
        return r;
    }
    r.value.name = std::move(name);
    r.value.shape = parsed.shape->kind == PoseShapeKind::Ellipsoid ? Shape::Ellipsoid : Shape::Capsule;
    r.value.radius = parsed.shape->radius;
    r.value.height = parsed.shape->height;
    return r;
}

const std::vector<RoundPose>& Tree::roundPoses() const {
    static const std::vector<RoundPose> none;
    return impl_ && impl_->round ? impl_->round->specs : none;
}

Result<Tree> Tree::withRoundPoses(const std::vector<RoundPose>& round) const {
    return guarded<Result<Tree>>([&] {
        if (!impl_) return failure<Tree>("no tree loaded");
        if (round.empty()) return success(Tree(std::make_shared<const Impl>(impl_->level, currentSettings(*impl_))));
        if (!impl_->world) return failure<Tree>("round poses need the brushes: this tree was saved without them");
        if (impl_->tree.poses.size() + round.size() > size_t(kMaxPoses))
            return failure<Tree>("more than " + std::to_string(kMaxPoses) + " poses in all");
        auto poses = std::make_shared<Impl::RoundPoses>();
        for (size_t i = 0; i < round.size(); ++i) {
            const RoundPose& r = round[i];
            const std::string which = "round pose " + std::to_string(i) + " (\"" + r.name + "\"): ";
            if (r.name.empty()) return failure<Tree>(which + "it needs a name");
            bool taken = impl_->tree.poseIndex(r.name) >= 0;
            for (size_t k = 0; k < i; ++k) taken |= round[k].name == r.name;
            if (taken) return failure<Tree>(which + "the name is taken");
            const PoseShape shape = r.shape == RoundPose::Shape::Ellipsoid ? PoseShape::ellipsoid(r.radius, r.height)
                                    : r.shape == RoundPose::Shape::Capsule ? PoseShape::capsule(r.radius, r.height)
                                                                           : PoseShape{};
            if (!shape.isRound()) return failure<Tree>(which + "unknown shape");
            if (const std::string problem = poseShapeProblem(shape); !problem.empty())
                return failure<Tree>(which + problem);
            Pose pose = Pose::round(r.name, shape);
            // Blocked as the level's game blocks its poses of that kind (Quake's when unknown).
            applyGameBlocking(impl_->level->movers ? impl_->level->movers->entities.game : Game::Quake, pose);
            poses->specs.push_back(r);
            poses->exact.push_back(std::make_unique<const RoundPoseWorld>(*impl_->world, pose));
        }
        return success(Tree(std::make_shared<const Impl>(impl_->level, currentSettings(*impl_), std::move(poses))));
    });
}

} // namespace shallot::runtime
