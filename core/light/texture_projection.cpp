#include "light/texture_projection.h"

#include <cmath>
#include <numbers>
#include <sstream>

namespace shallot {

namespace {

// qbsp's table: for each of the six axial directions, the normal and the s and t axes.
struct BaseAxis {
    Vec3 normal, s, t;
};
const std::array<BaseAxis, 6> kBaseAxes{{
    {{0, 0, 1}, {1, 0, 0}, {0, -1, 0}},  // floor
    {{0, 0, -1}, {1, 0, 0}, {0, -1, 0}}, // ceiling
    {{1, 0, 0}, {0, 1, 0}, {0, 0, -1}},  // west wall
    {{-1, 0, 0}, {0, 1, 0}, {0, 0, -1}}, // east wall
    {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}},  // south wall
    {{0, -1, 0}, {1, 0, 0}, {0, 0, -1}}, // north wall
}};

// Reads numbers and bracket tokens from the parameter text.
struct ParamReader {
    std::istringstream in;
    explicit ParamReader(const std::string& text) : in(text) {}
    bool number(double& v) { return bool(in >> v) && std::isfinite(v); }
    bool token(const char* expected) {
        std::string t;
        return bool(in >> t) && t == expected;
    }
};

// qbsp's rotation of the axes in texture space: exact for multiples of 90 degrees.
void rotate(std::array<Vec3, 2>& axes, double degrees) {
    double s = 0, c = 1;
    if (degrees == 0) s = 0, c = 1;
    else if (degrees == 90) s = 1, c = 0;
    else if (degrees == 180) s = 0, c = -1;
    else if (degrees == 270) s = -1, c = 0;
    else s = std::sin(degrees * std::numbers::pi / 180), c = std::cos(degrees * std::numbers::pi / 180);
    const auto firstNonZero = [](const Vec3& v) { return v.x() != 0 ? 0 : v.y() != 0 ? 1 : 2; };
    const int sv = firstNonZero(axes[0]), tv = firstNonZero(axes[1]);
    for (Vec3& a : axes) {
        const double ns = c * a[sv] - s * a[tv];
        const double nt = s * a[sv] + c * a[tv];
        a[sv] = ns;
        a[tv] = nt;
    }
}

bool fail(std::string* error, const std::string& message) {
    if (error) *error = message;
    return false;
}

bool readStandard(const std::string& text, const Vec3& normal, TextureProjection& out, std::string* error) {
    ParamReader r(text);
    double shift[2], rotation, scale[2];
    if (!r.number(shift[0]) || !r.number(shift[1]) || !r.number(rotation) || !r.number(scale[0]) || !r.number(scale[1]))
        return fail(error, "texture parameters \"" + text + "\" are not XOFF YOFF ROT XSCALE YSCALE");
    out.axis = quakeBaseAxes(normal);
    rotate(out.axis, rotation);
    for (int i = 0; i < 2; ++i) {
        out.axis[size_t(i)] /= scale[i] == 0 ? 1.0 : scale[i];
        out.offset[size_t(i)] = shift[i];
    }
    return true;
}

bool readValve(const std::string& text, TextureProjection& out, std::string* error) {
    ParamReader r(text);
    double v[2][4], rotation, scale[2];
    for (auto& axis : v) {
        if (!r.token("[") || !r.number(axis[0]) || !r.number(axis[1]) || !r.number(axis[2]) || !r.number(axis[3]) ||
            !r.token("]"))
            return fail(error, "texture parameters \"" + text + "\" are not Valve 220 [ U ] [ V ] ROT XSCALE YSCALE");
    }
    if (!r.number(rotation) || !r.number(scale[0]) || !r.number(scale[1]))
        return fail(error, "texture parameters \"" + text + "\" lack ROT XSCALE YSCALE");
    for (int i = 0; i < 2; ++i) {
        out.axis[size_t(i)] = Vec3(v[i][0], v[i][1], v[i][2]) / (scale[i] == 0 ? 1.0 : scale[i]);
        out.offset[size_t(i)] = v[i][3];
    }
    return true;
}

} // namespace

std::array<Vec3, 2> quakeBaseAxes(const Vec3& normal) {
    double best = 0;
    size_t bestAxis = 0;
    for (size_t i = 0; i < kBaseAxes.size(); ++i) {
        const double d = normal.dot(kBaseAxes[i].normal);
        if (d > best) {
            best = d;
            bestAxis = i;
        }
    }
    return {kBaseAxes[bestAxis].s, kBaseAxes[bestAxis].t};
}

std::optional<TextureProjection> textureProjection(const BrushSide& side, std::string* error) {
    TextureProjection out;
    const std::string& text = side.textureParams;
    const size_t first = text.find_first_not_of(" \t");
    bool ok = true;
    if (first == std::string::npos || !side.textureMatrix.empty()) out.axis = quakeBaseAxes(side.plane.normal);
    else if (text[first] == '[') ok = readValve(text, out, error);
    else ok = readStandard(text, side.plane.normal, out, error);
    if (!ok) return std::nullopt;
    if (!out.axis[0].allFinite() || !out.axis[1].allFinite() || !std::isfinite(out.offset[0]) ||
        !std::isfinite(out.offset[1])) {
        fail(error, "texture parameters \"" + text + "\" give a non-finite projection");
        return std::nullopt;
    }
    return out;
}

} // namespace shallot
