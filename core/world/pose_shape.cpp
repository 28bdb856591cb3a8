#include "world/pose_shape.h"

#include "world/number_text.h"

#include <charconv>
#include <cmath>

namespace shallot {

namespace {

std::string sizeProblem(const char* what, double v) {
    if (!std::isfinite(v)) return std::string(what) + " must be a finite number";
    if (v <= 0.0) return std::string(what) + " must be positive";
    if (v < kMinRoundShapeSize) return std::string(what) + " must be at least " + numberText(kMinRoundShapeSize);
    if (v > kMaxRoundShapeSize) return std::string(what) + " must be at most " + numberText(kMaxRoundShapeSize);
    return {};
}

std::optional<double> parseNumber(std::string_view text) {
    double v = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

} // namespace

std::string poseShapeProblem(const PoseShape& shape) {
    switch (shape.kind) {
    case PoseShapeKind::Box: return {};
    case PoseShapeKind::Ellipsoid: {
        std::string e = sizeProblem("ellipsoid radius across", shape.radius);
        return e.empty() ? sizeProblem("ellipsoid radius up", shape.height) : e;
    }
    case PoseShapeKind::Capsule: {
        if (std::string e = sizeProblem("capsule radius", shape.radius); !e.empty()) return e;
        if (std::string e = sizeProblem("capsule height", shape.height); !e.empty()) return e;
        if (shape.height < 2.0 * shape.radius)
            return "capsule height " + numberText(shape.height) + " is shorter than its diameter " +
                   numberText(2.0 * shape.radius);
        return {};
    }
    }
    return "unknown pose shape";
}

Vec3 boundingHalfExtents(const PoseShape& shape) {
    if (shape.kind == PoseShapeKind::Capsule) return {shape.radius, shape.radius, 0.5 * shape.height};
    return {shape.radius, shape.radius, shape.height};
}

// Ellipsoid x^2/r^2 + y^2/r^2 + z^2/h^2 <= 1: the box's corner (a, b, c) lies on it, and
// maximising abc there (Lagrange) makes the three terms equal, 1/3 each: r/sqrt 3, r/sqrt 3,
// h/sqrt 3 (volume 8 r^2 h / 3^1.5, 37% of the ellipsoid's).
// Capsule of radius r and cylinder half-length L = height/2 - r: by symmetry the box has a
// square section of half-side a and half-height c. With c <= L the corner only has to fit
// the cylinder (a = r / sqrt 2, best at c = L); above, it sits in a cap: 2a^2 + (c - L)^2
// = r^2. Volume a^2 c = (r^2 - u^2)(L + u) / 2 with u = c - L, largest where
// 3u^2 + 2Lu - r^2 = 0: u = (sqrt(L^2 + 3r^2) - L) / 3 >= 0, which beats c = L (u = 0).
// A sphere (L = 0) gives r/sqrt 3 on every axis, as the ellipsoid does.
Vec3 inscribedHalfExtents(const PoseShape& shape) {
    if (shape.kind == PoseShapeKind::Capsule) {
        const double r = shape.radius, L = 0.5 * shape.height - shape.radius;
        const double u = (std::sqrt(L * L + 3.0 * r * r) - L) / 3.0;
        const double a = std::sqrt(0.5 * (r * r - u * u));
        return {a, a, L + u};
    }
    const double k = 1.0 / std::sqrt(3.0);
    return {k * shape.radius, k * shape.radius, k * shape.height};
}

std::string poseShapeText(const PoseShape& shape) {
    if (!shape.isRound()) return "box";
    std::string s = shape.kind == PoseShapeKind::Ellipsoid ? "ellipsoid:" : "capsule:";
    appendNumber(s, shape.radius);
    s += ',';
    appendNumber(s, shape.height);
    return s;
}

PoseShapeParse parsePoseShape(std::string_view text) {
    const size_t colon = text.find(':');
    const std::string_view kind = text.substr(0, colon);
    PoseShape shape;
    if (kind == "ellipsoid") shape.kind = PoseShapeKind::Ellipsoid;
    else if (kind == "capsule") shape.kind = PoseShapeKind::Capsule;
    else return {std::nullopt, "unknown pose shape '" + std::string(kind) + "' (ellipsoid:R,H or capsule:R,HEIGHT)"};
    const std::string_view numbers = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
    const size_t comma = numbers.find(',');
    const auto radius = parseNumber(numbers.substr(0, comma));
    const auto height = comma == std::string_view::npos ? std::nullopt : parseNumber(numbers.substr(comma + 1));
    if (!radius || !height)
        return {std::nullopt, std::string(kind) + " needs two numbers: " +
                                  (shape.kind == PoseShapeKind::Ellipsoid ? "ellipsoid:R,H" : "capsule:R,HEIGHT")};
    shape.radius = *radius;
    shape.height = *height;
    if (std::string e = poseShapeProblem(shape); !e.empty()) return {std::nullopt, e};
    return {shape, {}};
}

} // namespace shallot
