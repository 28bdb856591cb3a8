#include "palette.h"

#include "world/entity_class.h"

#include <array>
#include <cmath>

namespace shallot::render {

namespace {

// sRGB (0..255) to CIE L*a*b* with the D65 white point.
std::array<double, 3> lab(const QColor& c) {
    const auto linear = [](int v) {
        const double u = v / 255.0;
        return u <= 0.04045 ? u / 12.92 : std::pow((u + 0.055) / 1.055, 2.4);
    };
    const double r = linear(c.red()), g = linear(c.green()), b = linear(c.blue());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    // The cube root, with CIE's linear part near black (6/29 cubed is its threshold).
    const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

} // namespace

double colourDistance(const QColor& a, const QColor& b) {
    const auto p = lab(a), q = lab(b);
    return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
}

QColor colourOfRgba(uint32_t rgba) { return QColor(int(rgba >> 24), int((rgba >> 16) & 0xff), int((rgba >> 8) & 0xff)); }

int viewWeightStep(uint32_t weight, uint32_t limit) {
    if (limit == 0 || weight >= limit) return kViewWeightSteps;
    return int(uint64_t(weight) * kViewWeightSteps / limit);
}

QColor viewWeightColour(int step) {
    if (step >= kViewWeightSteps) return QColor(255, 0, 255);
    // Hue 120 (green) down to 0 (red) over the steps under the limit.
    const int hue = 120 - 120 * step / (kViewWeightSteps - 1);
    return QColor::fromHsv(hue, 230, 245);
}

std::vector<PaletteEntry> paletteEntries() {
    std::vector<PaletteEntry> out{
        {kEmptyCellColour, "empty cell"},         {kSolidCellColour, "solid cell"},
        {kGreyedCellColour, "unreached cell"},    {kVoidColour, "void"},
        {kDecidedExactlyColour, "cell decided exactly (round pose)"},
        {kReachedColour, "reached"},              {kPortalColour, "portal"},
        {kVisibleColour, "in the PVS"},          {kTooDarkColour, "too dark"},
        {kQuake3RefusedColour, "refused by Quake 3's capsule"},
        {kMoverPathColour, "where movers go"},   {kMoverSweptColour, "swept by a mover"},
        {kExpandedWorldColour, "expanded world"}, {kBrushCutColour, "brush cut by the plane"},
        {kBrushEdgeColour, "brush edge"},         {kRayClearColour, "ray: clear"},
        {kRayBlockedColour, "ray: blocked"},      {kRayContactColour, "ray contact"},
        {kPoseBoxColour, "pose box"},             {kNavPathColour, "walking path"},
        {kStepUpColour, "step up"},               {kStepDownColour, "step down"},
        {kDropColour, "drop"},                    {kJumpColour, "jump"},
        {kDoorTravelColour, "door"},              {kPlatTravelColour, "plat ride"},
        {kTrainTravelColour, "train ride"},       {kTeleportTravelColour, "teleport"},
        {kPushTravelColour, "push"},              {kSwimTravelColour, "swim"},
        {kWaterJumpTravelColour, "water jump"},   {kLadderTravelColour, "ladder"},
        {kPlayerClipBrushColour, "player clip"},  {kMonsterClipBrushColour, "monster clip"},
        {kNonSolidBrushColour, "non-solid brush"}, {kPatchColour, "patch"},
        {kProblemColour, "problem"},              {kSelectionColour, "selection"},
        {kEditPreviewColour, "edit in progress"},
        {kDefaultBackgroundColour, "background"},
    };
    for (int c = 0; c < kEntityCategoryCount; ++c)
        out.push_back({colourOfRgba(categoryColour(EntityCategory(c))), categoryName(EntityCategory(c))});
    return out;
}

} // namespace shallot::render
