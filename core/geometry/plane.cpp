#include "geometry/plane.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace shallot {

std::optional<Plane> Plane::fromPoints(const Vec3& a, const Vec3& b, const Vec3& c) {
    if (!a.allFinite() || !b.allFinite() || !c.allFinite()) return std::nullopt;
    const Vec3 n = (a - b).cross(c - b);
    const double len = n.norm();
    // Relative test: the triangle's doubled area against its edge lengths.
    const double scale = (a - b).norm() * (c - b).norm();
    if (!(len > 1e-12 * scale) || len == 0.0) return std::nullopt;
    Plane p;
    p.normal = n / len;
    p.dist = p.normal.dot(b);
    return p;
}

int Plane::axis() const {
    // Not |normal[i]| == 1 alone: a normal turned by up to 1e-8 still has a component that
    // rounds to exactly 1.
    for (int i = 0; i < 3; ++i)
        if (std::abs(normal[i]) == 1.0 && normal[(i + 1) % 3] == 0.0 && normal[(i + 2) % 3] == 0.0) return i;
    return -1;
}

namespace {

// Lattice arithmetic. With |m| below 2^21 and |c| = |dist| |m| below kMaxLatticeDistance,
// the largest products (C s, up to 2^40 * 2^41, crossed with a reduced basis vector of up to
// 2^21 and dotted with m, 2^21, times 12 for the sums and the rounding) stay below 2^127.
using Int = __int128;

// The largest |c| = |dist| |m| handled: planes within the world (|dist| < 2^17) with the
// largest normals (|m| < 2^21) need 2^38.
constexpr double kMaxLatticeDistance = 1099511627776.0; // 2^40
using IVec = std::array<Int, 3>;

// A ratio of two components of a unit normal is taken for the first convergent p/q of its
// continued fraction (the simplest fraction, q up to kMaxIntegralNormal) within this of it.
// The ratio of a normal computed from integral points is off by a few ulps (~4e-16: the
// normalization cancels); one computed along a longer way (withBounds' inverse transpose)
// by up to ~1e-14; both far below. Distinct fractions with denominators up to 2^16 are at
// least 2^-32 (2.3e-10) apart, so below that this picks the one fraction; for larger ones
// (down to 2^-40 apart) a wrong pick moves the plane enough to fail the final check.
constexpr double kNormalRatioMatch = 1e-12;

// dist * |m| is taken for the nearest integer when within this of it. Integers are 1 apart,
// so the rounding is unambiguous; the points found are checked against the plane anyway.
constexpr double kIntegralDistanceMatch = 1e-3;

// Beyond this magnitude doubles no longer hold every integer (2^52, with a margin of 2).
constexpr double kMaxExactInteger = 4503599627370496.0;

struct Fraction {
    long long p, q;
};

// r (|r| <= 1) as a fraction p/q, q <= kMaxIntegralNormal, from its continued fraction.
std::optional<Fraction> asFraction(double r) {
    const double target = std::abs(r);
    long long h0 = 0, h1 = 1, k0 = 1, k1 = 0; // the last two convergents h/k
    double x = target;
    for (int step = 0; step < 64; ++step) {
        const double a = std::floor(x);
        if (!(a <= double(kMaxIntegralNormal))) return std::nullopt;
        const long long ai = static_cast<long long>(a);
        const long long h2 = ai * h1 + h0, k2 = ai * k1 + k0;
        if (k2 > kMaxIntegralNormal) return std::nullopt;
        h0 = h1, h1 = h2, k0 = k1, k1 = k2;
        if (std::abs(target - double(h1) / double(k1)) <= kNormalRatioMatch) return Fraction{r < 0 ? -h1 : h1, k1};
        const double rest = x - a;
        if (!(rest > 0.0)) return std::nullopt;
        x = 1.0 / rest;
    }
    return std::nullopt;
}

Int absInt(Int a) { return a < 0 ? -a : a; }

// g = gcd(a, b) >= 0 with a x + b y = g.
void extendedGcd(Int a, Int b, Int& g, Int& x, Int& y) {
    Int r0 = a, r1 = b, s0 = 1, s1 = 0, t0 = 0, t1 = 1;
    while (r1 != 0) {
        const Int q = r0 / r1;
        const Int r2 = r0 - q * r1, s2 = s0 - q * s1, t2 = t0 - q * t1;
        r0 = r1, r1 = r2, s0 = s1, s1 = s2, t0 = t1, t1 = t2;
    }
    if (r0 < 0) r0 = -r0, s0 = -s0, t0 = -t0;
    g = r0, x = s0, y = t0;
}

Int floorDiv(Int a, Int b) {
    Int q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) --q;
    return q;
}

// The integer nearest a / b (b != 0).
Int roundDiv(Int a, Int b) {
    if (b < 0) a = -a, b = -b;
    return floorDiv(2 * a + b, 2 * b);
}

Int dot(const IVec& a, const IVec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
IVec cross(const IVec& a, const IVec& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
IVec axpy(Int s, const IVec& a, const IVec& b) { return {s * a[0] + b[0], s * a[1] + b[1], s * a[2] + b[2]}; }

// Lagrange-Gauss reduction: a basis of the same 2D lattice with short, nearly orthogonal
// vectors.
void reduceBasis(IVec& a, IVec& b) {
    for (int step = 0; step < 256; ++step) {
        if (dot(a, a) > dot(b, b)) std::swap(a, b);
        const Int mu = roundDiv(dot(a, b), dot(a, a));
        if (mu == 0) return;
        b = axpy(-mu, a, b);
    }
}

std::optional<Vec3> toVec(const IVec& v) {
    Vec3 out;
    for (int i = 0; i < 3; ++i) {
        const double d = double(v[size_t(i)]);
        if (!(std::abs(d) <= kMaxExactInteger)) return std::nullopt;
        out[i] = d;
    }
    return out;
}

} // namespace

std::optional<std::array<Vec3, 3>> integralPointsOn(const Plane& plane, const Vec3& near, double spread,
                                                    double tolerance) {
    if (!plane.isFinite() || !near.allFinite() || !std::isfinite(spread)) return std::nullopt;
    if (!(near.cwiseAbs().maxCoeff() <= kMaxLatticeDistance)) return std::nullopt;
    const Vec3& n = plane.normal;
    int big = 0;
    for (int i = 1; i < 3; ++i)
        if (std::abs(n[i]) > std::abs(n[big])) big = i;
    if (!(std::abs(n[big]) > 0.0)) return std::nullopt;

    // The integer normal m: the ratios n[i] / n[big] as fractions over a common denominator.
    std::array<Fraction, 3> ratio{};
    long long denominator = 1;
    for (int i = 0; i < 3; ++i) {
        if (i == big) {
            ratio[size_t(i)] = {1, 1};
            continue;
        }
        const std::optional<Fraction> f = asFraction(n[i] / n[big]);
        if (!f) return std::nullopt;
        ratio[size_t(i)] = *f;
        denominator = std::lcm(denominator, f->q);
        if (denominator > kMaxIntegralNormal) return std::nullopt;
    }
    IVec m;
    for (size_t i = 0; i < 3; ++i) m[i] = Int(ratio[i].p) * (denominator / ratio[i].q) * (n[big] < 0 ? -1 : 1);
    Int g12, unused1, unused2;
    extendedGcd(m[0], m[1], g12, unused1, unused2);
    Int g, unused3, unused4;
    extendedGcd(g12, m[2], g, unused3, unused4);
    for (Int& c : m) c /= g;

    // The plane is m . x = c for an integer c.
    const double mNorm = std::sqrt(double(dot(m, m)));
    const double c = plane.dist * mNorm;
    const double cRounded = std::round(c);
    if (!(std::abs(c) <= kMaxLatticeDistance) || std::abs(c - cRounded) > kIntegralDistanceMatch) return std::nullopt;
    const Int C = Int(static_cast<long long>(cRounded));

    // A solution s of m . s = 1 and a basis (b1, b2) of the integer vectors with m . b = 0,
    // from the smallest component k and the other two i, j (not both zero).
    int k = 0;
    for (int a = 1; a < 3; ++a)
        if (absInt(m[size_t(a)]) < absInt(m[size_t(k)])) k = a;
    const size_t i = size_t((k + 1) % 3), j = size_t((k + 2) % 3), kk = size_t(k);
    Int gij, ui, uj, one, v, w;
    extendedGcd(m[i], m[j], gij, ui, uj); // ui m_i + uj m_j = gij > 0
    extendedGcd(gij, m[kk], one, v, w);   // v gij + w m_k = 1
    if (one != 1 || gij == 0) return std::nullopt;
    IVec s{}, b1{}, b2{};
    s[i] = v * ui, s[j] = v * uj, s[kk] = w;
    b1[i] = m[j] / gij, b1[j] = -m[i] / gij, b1[kk] = 0;
    b2[i] = ui * m[kk], b2[j] = uj * m[kk], b2[kk] = -gij; // b1 x b2 = m
    reduceBasis(b1, b2);
    const Int D = dot(cross(b1, b2), m); // +-m.m: the basis may have turned over

    // The lattice point nearest `near`: C s moved by whole steps of b1 and b2.
    const IVec x = {C * s[0], C * s[1], C * s[2]};
    const IVec t = {Int(static_cast<long long>(std::round(near[0]))), Int(static_cast<long long>(std::round(near[1]))),
                    Int(static_cast<long long>(std::round(near[2])))};
    const IVec y = {x[0] - t[0], x[1] - t[1], x[2] - t[2]};
    const Int alpha = roundDiv(dot(cross(y, b2), m), D);
    const Int beta = roundDiv(dot(cross(b1, y), m), D);
    const IVec p0 = axpy(-beta, b2, axpy(-alpha, b1, x));

    // The other two points about `spread` away along the basis vectors.
    const auto steps = [&](const IVec& b) {
        const double len = std::sqrt(double(dot(b, b)));
        const double count = std::floor(std::max(spread, 0.0) / len);
        return Int(static_cast<long long>(std::clamp(count, 1.0, double(kMaxIntegralNormal))));
    };
    const std::optional<Vec3> q0 = toVec(axpy(steps(b1), b1, p0)), q1 = toVec(p0), q2 = toVec(axpy(steps(b2), b2, p0));
    if (!q0 || !q1 || !q2) return std::nullopt;
    // (q0 - q1) x (q2 - q1) is a positive multiple of b1 x b2, which is D / |D| m.
    const std::array<Vec3, 3> points = D > 0 ? std::array<Vec3, 3>{*q0, *q1, *q2} : std::array<Vec3, 3>{*q2, *q1, *q0};

    const std::optional<Plane> back = Plane::fromPoints(points[0], points[1], points[2]);
    if (!back || (back->normal - plane.normal).cwiseAbs().maxCoeff() > tolerance ||
        std::abs(back->dist - plane.dist) > tolerance)
        return std::nullopt;
    return points;
}

} // namespace shallot
