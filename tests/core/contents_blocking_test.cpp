// Brushes of mixed contents and poses with their own blocking sets (issue #31): each
// pose's solidity and traces against brute force over only the brushes that block it.
#include "brute_force.h"
#include "query/trace.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

constexpr BrushContents kKinds[] = {
    BrushContents::Solid,      BrushContents::Clip,
    BrushContents::Window,     BrushContents::PlayerClip,
    BrushContents::MonsterClip, BrushContents::BotClip,
    BrushContents::Water,      BrushContents::Solid | BrushContents::Detail,
    BrushContents::Ladder | BrushContents::PlayerClip, BrushContents::NonSolid,
};

constexpr BrushContents kBlockers[] = {BrushContents::Solid,      BrushContents::Window,  BrushContents::Clip,
                                       BrushContents::PlayerClip, BrushContents::MonsterClip, BrushContents::BotClip,
                                       BrushContents::Water};

// A random world whose brushes have random contents and whose poses (the point and three
// boxes) each block on a random set.
World mixedWorld(Rng& rng, int count, double spread) {
    World w = randomWorld(rng, count, spread, 3);
    for (Brush& b : w.brushes) b.contents = kKinds[rng() % std::size(kKinds)];
    for (Pose& pose : w.poses) {
        BrushContents set = BrushContents::NonSolid;
        for (const BrushContents bit : kBlockers)
            if (rng() % 2) set = set | bit;
        pose.blocking = set;
    }
    return w;
}

// What pose `p` of `w` sees, worked out here bit by bit (not with blocks()): the brushes
// whose contents share a bit with its set, made plain solid, and that one pose.
World seenBy(const World& w, size_t p) {
    World out;
    out.bounds = w.bounds;
    Pose pose = w.poses[p];
    pose.blocking = BrushContents::Solid;
    out.poses = {pose};
    for (const Brush& b : w.brushes)
        if (uint32_t(b.contents) & uint32_t(*w.poses[p].blocking)) {
            out.brushes.push_back(b);
            out.brushes.back().contents = BrushContents::Solid;
        }
    return out;
}

} // namespace

TEST(ContentsBlocking, EachPoseIsSolidWhereOnlyItsBlockingBrushesSay) {
    for (uint32_t seed = 1; seed <= 12; ++seed) {
        SCOPED_TRACE(seed);
        Rng rng(seed);
        const World w = mixedWorld(rng, 14, 120);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        int compared = 0;
        for (size_t pose = 0; pose < w.poses.size(); ++pose) {
            const World seen = seenBy(w, pose);
            const BruteForce brute(seen);
            for (int i = 0; i < 400; ++i) {
                const Vec3 q(uniform(rng, -150, 150), uniform(rng, -150, 150), uniform(rng, -150, 150));
                const std::optional<bool> expected = brute.solid(q, 0);
                if (!expected) continue;
                ++compared;
                ASSERT_EQ(r.onion.isSolid(q, int(pose)), *expected)
                    << "pose " << pose << " (" << contentsName(*w.poses[pose].blocking) << ") at " << q.transpose();
                ASSERT_EQ(r.mapTrees[pose].isSolid(q, 0), *expected) << "map tree of pose " << pose;
            }
        }
        EXPECT_GT(compared, 800);
    }
}

// A trace of pose p stops where the swept box first meets a brush that blocks p: checked
// against the brute-force solidity of points sampled along the segment.
TEST(ContentsBlocking, TracesPerPoseStopAtTheFirstBrushThatBlocksThatPose) {
    constexpr int kSamples = 400;
    int hits = 0, compared = 0;
    for (uint32_t seed = 20; seed < 28; ++seed) {
        SCOPED_TRACE(seed);
        Rng rng(seed);
        const World w = mixedWorld(rng, 12, 100);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        for (size_t pose = 0; pose < w.poses.size(); ++pose) {
            const World seen = seenBy(w, pose);
            const BruteForce brute(seen);
            for (int i = 0; i < 60; ++i) {
                const Vec3 a(uniform(rng, -130, 130), uniform(rng, -130, 130), uniform(rng, -130, 130));
                const Vec3 b(uniform(rng, -130, 130), uniform(rng, -130, 130), uniform(rng, -130, 130));
                // The first sample found solid, or none; a sample on a boundary makes the
                // case ambiguous at this resolution and it is skipped.
                std::optional<int> first;
                bool ambiguous = false;
                for (int k = 0; k <= kSamples && !first && !ambiguous; ++k) {
                    const std::optional<bool> s = brute.solid(a + (b - a) * (double(k) / kSamples), 0);
                    if (!s) ambiguous = true;
                    else if (*s) first = k;
                }
                if (ambiguous) continue;
                ++compared;
                const TraceResult t = traceSegment(r.onion, int(pose), a, b);
                if (first && *first == 0) {
                    EXPECT_TRUE(t.startSolid) << "pose " << pose << " from " << a.transpose();
                    continue;
                }
                EXPECT_FALSE(t.startSolid) << "pose " << pose << " from " << a.transpose();
                if (!first) continue; // a hit here can only be on a sliver thinner than a sample step
                ++hits;
                EXPECT_TRUE(t.hit) << "pose " << pose << " " << a.transpose() << " -> " << b.transpose();
                EXPECT_LE(t.t, double(*first) / kSamples + 1e-9) << "pose " << pose;
                EXPECT_GE(t.t, double(*first - 1) / kSamples - 1e-9) << "pose " << pose;
            }
        }
    }
    EXPECT_GT(compared, 1000);
    EXPECT_GT(hits, 200);
}

// A brush that blocks no pose is kept in the world but gives the compile nothing: the
// tree is the one of the world without it.
TEST(ContentsBlocking, BrushesThatBlockNoPoseCostNothing) {
    Rng rng(40);
    World w = mixedWorld(rng, 16, 120);
    for (Pose& pose : w.poses) pose.blocking = BrushContents::Solid | BrushContents::PlayerClip;
    World without = w;
    std::erase_if(without.brushes, [](const Brush& b) {
        return !intersects(b.contents, BrushContents::Solid | BrushContents::PlayerClip);
    });
    ASSERT_LT(without.brushes.size(), w.brushes.size());
    const CompileResult a = compileWorld(w), b = compileWorld(without);
    EXPECT_EQ(a.onion.nodes.size(), b.onion.nodes.size());
    EXPECT_EQ(a.onion.leafSolid, b.onion.leafSolid);
    EXPECT_EQ(a.stats.polygonsPerPose, b.stats.polygonsPerPose);
}

TEST(ContentsBlocking, NamesReadBackAndUnknownNamesAreRefused) {
    for (uint32_t bits = 0; bits < (1u << 13); bits += 37) {
        const BrushContents c = BrushContents(bits);
        EXPECT_EQ(parseContents(contentsName(c)), c) << contentsName(c);
    }
    EXPECT_EQ(parseContents("solid+monsterclip"), BrushContents::Solid | BrushContents::MonsterClip);
    EXPECT_EQ(parseContents("monsterclip+solid"), BrushContents::Solid | BrushContents::MonsterClip);
    EXPECT_EQ(parseContents("nonsolid"), BrushContents::NonSolid);
    for (const char* bad : {"", "solid+", "+solid", "Solid", "glass", "solid++clip", "nonsolid+solid"})
        EXPECT_FALSE(parseContents(bad)) << bad;
    // Quake's rule when a pose names no set: clip blocks boxes, not the point.
    Pose point, box;
    box.maxs = Vec3::Ones();
    Brush clip = Brush::box(Vec3::Zero(), Vec3::Ones());
    clip.contents = BrushContents::Clip;
    EXPECT_FALSE(blocks(clip, point));
    EXPECT_TRUE(blocks(clip, box));
}
