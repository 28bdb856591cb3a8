#include "light/outside_faces.h"

#include "portal/reachability.h"

namespace shallot {

OutsideFaces findOutsideFaces(const std::vector<LitFace>& faces, const BspTree& tree, int pose,
                              const std::vector<Vec3>& inside) {
    OutsideFaces out;
    out.outside.assign(faces.size(), false);
    if (tree.portals.empty()) return out;
    const std::vector<bool> reached = reachableFromOutside(tree, pose);
    const auto outsideAt = [&](const Vec3& p) {
        const int32_t leaf = tree.findLeaf(p);
        return !((tree.leafSolid[size_t(leaf)] >> pose) & 1u) && reached[size_t(leaf)];
    };
    for (const Vec3& p : inside)
        if (outsideAt(p)) {
            out.leaks = true;
            return out;
        }
    for (size_t f = 0; f < faces.size(); ++f) {
        const LitFace& face = faces[f];
        out.outside[f] = outsideAt(face.polygon.centroid() + face.plane.normal * kOutsideProbe);
    }
    return out;
}

} // namespace shallot
