// Texture space and luxel grids as Quake's tools compute them: qbsp's axial projection
// (with rotation, scale and shift), Valve 220 axes, the engine's extents and id's light's
// map back onto the face; the bilinear reading of a lightmap.
#include "light/light_lookup.h"
#include "light/luxel_grid.h"
#include "light/texture_projection.h"

#include <gtest/gtest.h>

using namespace shallot;

namespace {

BrushSide side(const Vec3& normal, double dist, const std::string& params) {
    BrushSide s;
    s.plane = {normal.normalized(), dist};
    s.texture = "wall";
    s.textureParams = params;
    return s;
}

TextureProjection projection(const Vec3& normal, const std::string& params) {
    std::string error;
    const std::optional<TextureProjection> p = textureProjection(side(normal, 0, params), &error);
    EXPECT_TRUE(p) << error;
    return p.value_or(TextureProjection{});
}

TEST(LightTexture, AxialProjectionAsQbsp) {
    const Vec3 p(10, 20, 30);
    TextureProjection floor = projection(Vec3::UnitZ(), "0 0 0 1 1");
    EXPECT_DOUBLE_EQ(floor.coordinate(0, p), 10);
    EXPECT_DOUBLE_EQ(floor.coordinate(1, p), -20);
    floor = projection(Vec3::UnitZ(), "16 32 0 2 0.5");
    EXPECT_DOUBLE_EQ(floor.coordinate(0, p), 10 / 2.0 + 16);
    EXPECT_DOUBLE_EQ(floor.coordinate(1, p), -20 / 0.5 + 32);
    // 90 degrees: exact, s along +y and t along +x.
    floor = projection(Vec3::UnitZ(), "0 0 90 1 1");
    EXPECT_EQ(floor.axis[0], Vec3(0, 1, 0));
    EXPECT_EQ(floor.axis[1], Vec3(1, 0, 0));
    // A scale of 0 reads as 1.
    EXPECT_DOUBLE_EQ(projection(Vec3::UnitZ(), "0 0 0 0 0").coordinate(0, p), 10);
    const TextureProjection wall = projection(Vec3::UnitX(), "0 0 0 1 1");
    EXPECT_DOUBLE_EQ(wall.coordinate(0, p), 20);
    EXPECT_DOUBLE_EQ(wall.coordinate(1, p), -30);
    const TextureProjection north = projection(-Vec3::UnitY(), "0 0 0 1 1");
    EXPECT_DOUBLE_EQ(north.coordinate(0, p), 10);
    EXPECT_DOUBLE_EQ(north.coordinate(1, p), -30);
    // A slope takes the axis its normal is closest to; a tie the first in qbsp's order.
    EXPECT_EQ(quakeBaseAxes(Vec3(0.6, 0, 0.8))[0], Vec3(1, 0, 0));
    EXPECT_EQ(quakeBaseAxes(Vec3(0.8, 0, 0.6))[0], Vec3(0, 1, 0));
    EXPECT_EQ(quakeBaseAxes(Vec3(1, 0, 1).normalized())[1], Vec3(0, -1, 0));
    // Any other rotation turns the axes by that angle.
    const TextureProjection turned = projection(Vec3::UnitZ(), "0 0 30 1 1");
    EXPECT_NEAR(turned.axis[0].dot(Vec3(1, 0, 0)), std::cos(30 * M_PI / 180), 1e-12);
}

TEST(LightTexture, Valve220Axes) {
    const TextureProjection v = projection(Vec3::UnitZ(), "[ 1 0 0 8 ] [ 0 -1 0 4 ] 15 2 0.5");
    const Vec3 p(10, 20, 30);
    EXPECT_DOUBLE_EQ(v.coordinate(0, p), 10 / 2.0 + 8);
    EXPECT_DOUBLE_EQ(v.coordinate(1, p), -20 / 0.5 + 4);
}

TEST(LightTexture, BadParametersAreRefusedWithAMessage) {
    for (const char* bad : {"a b c d e", "0 0 0 1", "[ 1 0 0 ] [ 0 1 0 0 ] 0 1 1", "0 0 nan 1 1", "[ 1 0 0 0 ] [ 0 1 0 0 ] 0 1"}) {
        std::string error;
        EXPECT_FALSE(textureProjection(side(Vec3::UnitZ(), 0, bad), &error)) << bad;
        EXPECT_NE(error.find("texture parameters"), std::string::npos) << error;
    }
}

LitFace floorFace(const std::vector<Vec3>& corners, const std::string& params) {
    LitFace f;
    f.polygon.vertices = corners;
    f.plane = {Vec3::UnitZ(), corners[0].z()};
    f.texture = "floor";
    f.projection = projection(Vec3::UnitZ(), params);
    return f;
}

TEST(LightTexture, GridExtentsAndPointsAsTheEngine) {
    const LitFace f = floorFace({{0, 0, 0}, {100, 0, 0}, {100, 50, 0}, {0, 50, 0}}, "0 0 0 1 1");
    const std::optional<LuxelGrid> g = luxelGrid(f);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->mins[0], 0);
    EXPECT_EQ(g->size[0], 7); // ceil(100 / 16)
    EXPECT_EQ(g->mins[1], -4); // t = -y in [-50, 0]
    EXPECT_EQ(g->size[1], 4);
    EXPECT_EQ(g->width(), 8);
    EXPECT_EQ(g->height(), 5);
    // Luxel (i, j) sits at s = 16 i, t = -64 + 16 j, one unit above the floor.
    EXPECT_TRUE(g->pointAt(g->luxelS(2), g->luxelT(1)).isApprox(Vec3(32, 48, 1)));
    // Rounding of a vertex on the 16-grid adds no luxels.
    const LitFace nearly = floorFace({{0, 0, 0}, {127.9999999, 0, 0}, {127.9999999, 16.0000001, 0}, {0, 16.0000001, 0}}, "0 0 0 1 1");
    const std::optional<LuxelGrid> n = luxelGrid(nearly);
    ASSERT_TRUE(n);
    EXPECT_EQ(n->size[0], 8);
    EXPECT_EQ(n->size[1], 1);
    // A sloped face keeps its points on the face (one unit in front), along the texture normal.
    LitFace slope = f;
    slope.plane = {Vec3(0, 0.6, 0.8), 0};
    slope.polygon.vertices = {{0, 0, 0}, {100, 0, 0}, {100, 40, -30}, {0, 40, -30}};
    const std::optional<LuxelGrid> s = luxelGrid(slope);
    ASSERT_TRUE(s);
    for (double u : {0.0, 16.0, 64.0})
        EXPECT_NEAR(slope.plane.signedDistance(s->pointAt(u, -16)), kSampleOffPlane, 1e-9);
}

TEST(LightTexture, AxesInTheFacePlaneAreRefused) {
    LitFace f = floorFace({{0, 0, 0}, {10, 0, 0}, {10, 10, 0}, {0, 10, 0}}, "0 0 0 1 1");
    std::string error;
    f.projection.axis = {Vec3(1, 0, 0), Vec3(0, 1, 1)}; // a slanted texture plane still projects
    EXPECT_TRUE(luxelGrid(f, &error)) << error;
    f.projection.axis = {Vec3(1, 0, 0), Vec3(0, 0, 1)}; // s and t span a wall: no way onto the floor
    EXPECT_FALSE(luxelGrid(f, &error));
    EXPECT_NE(error.find("perpendicular"), std::string::npos);
    f.projection.axis = {Vec3(1, 0, 0), Vec3(2, 0, 0)}; // parallel axes
    EXPECT_FALSE(luxelGrid(f, &error));
}

TEST(LightTexture, BilinearOverTheFourLuxelsAround) {
    FaceLightmap map;
    map.grid.mins = {2, -1};
    map.grid.size = {1, 1}; // 2 x 2 luxels
    StyleLightmap m;
    m.light = {0, 100, 50, 200};
    m.rgb = {0, 0, 0, 100, 50, 0, 50, 25, 0, 200, 100, 0};
    map.styles.push_back(m);
    EXPECT_DOUBLE_EQ(bilinearLight(map, 32, -16).light, 0);
    EXPECT_DOUBLE_EQ(bilinearLight(map, 48, -16).light, 100);
    EXPECT_DOUBLE_EQ(bilinearLight(map, 32, 0).light, 50);
    EXPECT_DOUBLE_EQ(bilinearLight(map, 48, 0).light, 200);
    EXPECT_DOUBLE_EQ(bilinearLight(map, 40, -8).light, (0 + 100 + 50 + 200) / 4.0);
    EXPECT_DOUBLE_EQ(bilinearLight(map, 44, -16).light, 75);
    EXPECT_DOUBLE_EQ(bilinearLight(map, 44, -16).color[1], 37.5);
    // Past the grid (a point within the contract's half unit outside the face) reads the edge.
    EXPECT_DOUBLE_EQ(bilinearLight(map, 100, 50).light, 200);
}

} // namespace
