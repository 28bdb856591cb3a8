#pragma once
// What blocks light: the shadow test of a lighting pass, behind an interface so the tests
// can compare the tree against every brush tested directly.
#include "geometry/plane.h"

namespace shallot {

class LightOccluder {
public:
    virtual ~LightOccluder() = default;
    // Does the segment from -> to pass through the interior of a light-blocking brush
    // (a start inside one counts; touching a surface does not)?
    virtual bool blocked(const Vec3& from, const Vec3& to) const = 0;
    // Does the ray from `from` along unit `direction` first enter a brush through a sky
    // face (sunlight reaches `from`)?
    virtual bool reachesSky(const Vec3& from, const Vec3& direction) const = 0;
    // How far the ray from `from` along unit `direction` goes before it enters a brush
    // other than through a sky face (0 from inside one); `length` when it does not within
    // `length` (ericw-tools' dirt rays: sky counts as open).
    virtual double openDistance(const Vec3& from, const Vec3& direction, double length) const = 0;
    // Is `p` inside a light-blocking brush or within `margin` of one (tested at p and at p
    // moved by `margin` along each axis both ways)?
    virtual bool nearSolid(const Vec3& p, double margin) const = 0;
};

// How far a sun ray looks for the sky (ericw-tools' MAX_SKY_DIST).
inline constexpr double kSunRayLength = 1e6;

} // namespace shallot
