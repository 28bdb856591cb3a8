#include "io/mesh_import.h"

#include "geometry/aabb.h"
#include "io/convex_hull.h"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>

namespace shallot {

namespace {

using Transform = Eigen::Affine3d;

Transform toEigen(const aiMatrix4x4& m) {
    Transform t;
    t.matrix() << m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4, m.c1, m.c2, m.c3, m.c4, m.d1, m.d2, m.d3, m.d4;
    return t;
}

// A part to be hulled: its points and its triangles (indices into points).
struct Part {
    std::string name;
    std::vector<Vec3> points;
    std::vector<std::array<uint32_t, 3>> triangles;
};

std::string format(double v) {
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}

// Each vertex's welded index: vertices at exactly the same position (the same corner of two
// faces) share one. `representatives` receives the first vertex of each welded index.
std::vector<uint32_t> weldByPosition(const aiMesh& mesh, std::vector<uint32_t>& representatives) {
    std::map<std::array<float, 3>, uint32_t> first;
    std::vector<uint32_t> weld(mesh.mNumVertices);
    for (uint32_t i = 0; i < mesh.mNumVertices; ++i) {
        const aiVector3D& v = mesh.mVertices[i];
        const auto [it, added] = first.try_emplace({v.x, v.y, v.z}, uint32_t(representatives.size()));
        if (added) representatives.push_back(i);
        weld[i] = it->second;
    }
    return weld;
}

uint32_t findRoot(std::vector<uint32_t>& parent, uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

// The mesh as one part, or as its connected parts (faces sharing a welded vertex).
std::vector<Part> partsOf(const aiMesh& mesh, const Transform& toWorld, const std::string& name, bool split) {
    std::vector<uint32_t> representatives;
    const std::vector<uint32_t> weld = weldByPosition(mesh, representatives);
    std::vector<uint32_t> parent(representatives.size());
    std::iota(parent.begin(), parent.end(), 0u);
    if (split)
        for (uint32_t f = 0; f < mesh.mNumFaces; ++f) {
            const aiFace& face = mesh.mFaces[f];
            for (uint32_t k = 1; k < face.mNumIndices; ++k)
                parent[findRoot(parent, weld[face.mIndices[k]])] = findRoot(parent, weld[face.mIndices[0]]);
        }

    std::vector<Part> parts;
    std::map<uint32_t, size_t> partOfRoot;           // union-find root -> index in parts
    std::vector<uint32_t> pointIndex(representatives.size()); // welded vertex -> index in its part
    for (uint32_t w = 0; w < representatives.size(); ++w) {
        const uint32_t root = split ? findRoot(parent, w) : 0;
        const auto [it, added] = partOfRoot.try_emplace(root, parts.size());
        if (added) parts.push_back({name, {}, {}});
        Part& part = parts[it->second];
        const aiVector3D& v = mesh.mVertices[representatives[w]];
        pointIndex[w] = uint32_t(part.points.size());
        part.points.push_back(toWorld * Vec3(v.x, v.y, v.z));
    }
    for (uint32_t f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace& face = mesh.mFaces[f];
        if (face.mNumIndices != 3) continue; // points and lines add vertices but no surface
        const uint32_t w0 = weld[face.mIndices[0]];
        Part& part = parts[partOfRoot[split ? findRoot(parent, w0) : 0]];
        part.triangles.push_back({pointIndex[w0], pointIndex[weld[face.mIndices[1]]], pointIndex[weld[face.mIndices[2]]]});
    }
    if (parts.size() > 1)
        for (size_t i = 0; i < parts.size(); ++i) parts[i].name += " part " + std::to_string(i + 1);
    return parts;
}

bool allFinite(const aiMesh& mesh) {
    return std::all_of(mesh.mVertices, mesh.mVertices + mesh.mNumVertices, [](const aiVector3D& v) {
        return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
    });
}

// Collects the parts of every mesh reachable from `node`, with the node transforms applied.
void collectParts(const aiScene& scene, const aiNode& node, const Transform& parentToWorld, bool split,
                  std::vector<Part>& parts, std::vector<std::string>& skipped) {
    const Transform toWorld = parentToWorld * toEigen(node.mTransformation);
    const std::string nodeName = node.mName.length ? node.mName.C_Str() : "unnamed node";
    for (uint32_t m = 0; m < node.mNumMeshes; ++m) {
        const aiMesh& mesh = *scene.mMeshes[node.mMeshes[m]];
        std::string name = nodeName;
        if (node.mNumMeshes > 1) name += "/" + (mesh.mName.length ? std::string(mesh.mName.C_Str()) : std::to_string(m));
        if (!allFinite(mesh)) {
            skipped.push_back("part '" + name + "' has coordinates that are not finite numbers; skipped");
            continue;
        }
        for (Part& p : partsOf(mesh, toWorld, name, split)) parts.push_back(std::move(p));
        if (parts.size() > kMaxImportedParts) return;
    }
    for (uint32_t c = 0; c < node.mNumChildren && parts.size() <= kMaxImportedParts; ++c)
        collectParts(scene, *node.mChildren[c], toWorld, split, parts, skipped);
}

// Whether every edge is shared by exactly two triangles, as on a closed surface.
bool isClosed(const Part& part) {
    std::map<std::pair<uint32_t, uint32_t>, int> uses;
    for (const auto& t : part.triangles)
        for (int k = 0; k < 3; ++k) ++uses[std::minmax(t[size_t(k)], t[size_t((k + 1) % 3)])];
    return !uses.empty() && std::all_of(uses.begin(), uses.end(), [](const auto& e) { return e.second == 2; });
}

double enclosedVolume(const Part& part) {
    double sixTimes = 0.0;
    for (const auto& t : part.triangles)
        sixTimes += part.points[t[0]].dot(part.points[t[1]].cross(part.points[t[2]]));
    return std::abs(sixTimes) / 6.0;
}

// How far `p` is inside the hull (0 on its boundary).
double depthInside(const Vec3& p, const ConvexHull& hull) {
    double d = std::numeric_limits<double>::infinity();
    for (const Plane& plane : hull.planes) d = std::min(d, -plane.signedDistance(p));
    return std::max(d, 0.0);
}

bool liesOnAHullFace(const Part& part, const std::array<uint32_t, 3>& t, const ConvexHull& hull, double tolerance) {
    return std::any_of(hull.planes.begin(), hull.planes.end(), [&](const Plane& plane) {
        return std::all_of(t.begin(), t.end(),
                           [&](uint32_t i) { return std::abs(plane.signedDistance(part.points[i])) <= tolerance; });
    });
}

// The warning for a part that is not convex (a triangle of its surface off the hull's
// faces), or empty when it is convex.
std::string convexityWarning(const Part& part, const ConvexHull& hull) {
    Aabb box;
    for (const Vec3& p : part.points) box.add(p);
    const double tolerance = kConvexityTolerance * std::max(1.0, (box.maxs - box.mins).norm());
    size_t inside = 0;
    double deepest = 0.0; // sampled at the corners, edge midpoints and centre of such triangles
    for (const auto& t : part.triangles) {
        if (liesOnAHullFace(part, t, hull, tolerance)) continue;
        ++inside;
        const Vec3 &a = part.points[t[0]], &b = part.points[t[1]], &c = part.points[t[2]];
        for (const Vec3& p : {a, b, c, Vec3((a + b) / 2), Vec3((b + c) / 2), Vec3((c + a) / 2), Vec3((a + b + c) / 3)})
            deepest = std::max(deepest, depthInside(p, hull));
    }
    if (inside == 0) return {};
    std::string w = "part '" + part.name + "' is not convex: " + std::to_string(inside) + " of its " +
                    std::to_string(part.triangles.size()) + " triangles lie inside its convex hull, up to " +
                    format(deepest) + " units deep";
    if (isClosed(part)) {
        const double volume = enclosedVolume(part);
        w += "; the mesh fills " + format(100.0 * volume / hull.volume) + "% of the hull (volume " + format(volume) +
             " of " + format(hull.volume) + ")";
    }
    return w + "; the brush is the hull";
}

} // namespace

MeshImportResult importMeshBrushes(const std::string& path, const MeshImportOptions& options) {
    MeshImportResult result;
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_ValidateDataStructure);
    if (!scene || !scene->mRootNode) {
        result.error = path + ": " + importer.GetErrorString();
        return result;
    }
    Transform root = Transform(Eigen::Scaling(options.scale));
    if (options.yUp) { // (x, y, z) -> (x, -z, y): +Y becomes +Z
        Eigen::Matrix3d turn;
        turn << 1, 0, 0, 0, 0, -1, 0, 1, 0;
        root = root * Transform(turn);
    }
    std::vector<Part> parts;
    std::vector<std::string> skipped;
    collectParts(*scene, *scene->mRootNode, root, options.splitConnectedParts, parts, skipped);
    for (const std::string& s : skipped) result.warnings.push_back(path + ": " + s);
    if (parts.size() > kMaxImportedParts) {
        result.error = path + ": more than " + std::to_string(kMaxImportedParts) + " mesh parts";
        return result;
    }
    for (const Part& part : parts) {
        std::string why;
        const std::optional<ConvexHull> hull = convexHull(part.points, why);
        if (!hull) {
            result.warnings.push_back(path + ": part '" + part.name + "' has no volume (" + why + "); skipped");
            continue;
        }
        if (const std::string w = convexityWarning(part, *hull); !w.empty()) result.warnings.push_back(path + ": " + w);
        result.brushes.push_back(Brush::fromPlanes(hull->planes));
        result.partNames.push_back(part.name);
    }
    if (result.brushes.empty())
        result.error = path + (parts.empty() ? ": the file holds no mesh" : ": no mesh part has a volume");
    return result;
}

} // namespace shallot
