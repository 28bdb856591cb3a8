#include "io/mesh_export.h"

#include "portal/leaf_cells.h"

#include <assimp/Exporter.hpp>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <memory>

namespace shallot {

namespace {

// The Assimp exporter for a file name's extension, or null.
const char* formatFor(std::string path) {
    std::transform(path.begin(), path.end(), path.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (path.ends_with(".glb")) return "glb2";
    if (path.ends_with(".gltf")) return "gltf2";
    if (path.ends_with(".obj")) return "obj";
    return nullptr;
}

// Collects polygons as fan triangles with flat normals, then hands them over as an aiMesh.
class MeshBuilder {
public:
    void add(std::span<const Vec3> polygon, const Vec3& normal) {
        if (polygon.size() < 3) return;
        const auto first = uint32_t(positions_.size());
        for (const Vec3& v : polygon) {
            positions_.emplace_back(float(v.x()), float(v.y()), float(v.z()));
            normals_.emplace_back(float(normal.x()), float(normal.y()), float(normal.z()));
        }
        for (uint32_t i = 1; i + 1 < polygon.size(); ++i) triangles_.push_back({first, first + i, first + i + 1});
    }
    bool empty() const { return triangles_.empty(); }

    aiMesh* release(const std::string& name, unsigned material) {
        auto* mesh = new aiMesh;
        mesh->mName = aiString(name);
        mesh->mMaterialIndex = material;
        mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
        mesh->mNumVertices = unsigned(positions_.size());
        mesh->mVertices = new aiVector3D[positions_.size()];
        mesh->mNormals = new aiVector3D[normals_.size()];
        std::copy(positions_.begin(), positions_.end(), mesh->mVertices);
        std::copy(normals_.begin(), normals_.end(), mesh->mNormals);
        mesh->mNumFaces = unsigned(triangles_.size());
        mesh->mFaces = new aiFace[triangles_.size()];
        for (size_t f = 0; f < triangles_.size(); ++f) {
            mesh->mFaces[f].mNumIndices = 3;
            mesh->mFaces[f].mIndices = new unsigned[3]{triangles_[f][0], triangles_[f][1], triangles_[f][2]};
        }
        return mesh;
    }

private:
    std::vector<aiVector3D> positions_, normals_;
    std::vector<std::array<uint32_t, 3>> triangles_;
};

aiMaterial* poseMaterial(const Pose& pose) {
    auto* m = new aiMaterial;
    const aiString name("pose:" + pose.name);
    m->AddProperty(&name, AI_MATKEY_NAME);
    const aiColor4D colour(float((pose.colour >> 24) & 0xff) / 255.0f, float((pose.colour >> 16) & 0xff) / 255.0f,
                           float((pose.colour >> 8) & 0xff) / 255.0f, float(pose.colour & 0xff) / 255.0f);
    m->AddProperty(&colour, 1, AI_MATKEY_COLOR_DIFFUSE);
    m->AddProperty(&colour, 1, AI_MATKEY_BASE_COLOR);
    return m;
}

// Builds the scene graph: a root with one child node per (kind, pose), each with its mesh
// when it has any geometry.
class SceneBuilder {
public:
    SceneBuilder() : scene_(std::make_unique<aiScene>()) { scene_->mRootNode = new aiNode("shallot"); }
    ~SceneBuilder() { // what finish() did not hand over
        for (aiMaterial* m : materials_) delete m;
        for (aiMesh* m : meshes_) delete m;
        for (aiNode* n : nodes_) delete n;
    }
    SceneBuilder(const SceneBuilder&) = delete;
    SceneBuilder& operator=(const SceneBuilder&) = delete;

    unsigned addMaterial(aiMaterial* m) {
        materials_.push_back(m);
        return unsigned(materials_.size() - 1);
    }
    void addNode(const std::string& name, MeshBuilder& geometry, unsigned material) {
        auto* node = new aiNode(name);
        node->mParent = scene_->mRootNode;
        if (!geometry.empty()) {
            node->mNumMeshes = 1;
            node->mMeshes = new unsigned[1]{unsigned(meshes_.size())};
            meshes_.push_back(geometry.release(name, material));
        }
        nodes_.push_back(node);
    }

    std::unique_ptr<aiScene> finish() {
        scene_->mNumMaterials = unsigned(materials_.size());
        scene_->mMaterials = new aiMaterial*[materials_.size()];
        std::copy(materials_.begin(), materials_.end(), scene_->mMaterials);
        scene_->mNumMeshes = unsigned(meshes_.size());
        scene_->mMeshes = new aiMesh*[meshes_.size()];
        std::copy(meshes_.begin(), meshes_.end(), scene_->mMeshes);
        scene_->mRootNode->addChildren(unsigned(nodes_.size()), nodes_.data());
        materials_.clear(), meshes_.clear(), nodes_.clear();
        return std::move(scene_);
    }

private:
    std::unique_ptr<aiScene> scene_;
    std::vector<aiMaterial*> materials_;
    std::vector<aiMesh*> meshes_;
    std::vector<aiNode*> nodes_;
};

} // namespace

std::string exportTreeMesh(const BspTree& tree, const std::string& path, const MeshExportOptions& options) {
    const char* format = formatFor(path);
    if (!format) return path + ": unknown mesh format (use .glb, .gltf or .obj)";
    std::vector<int> poses;
    for (const std::string& name : options.poses) {
        const int p = tree.poseIndex(name);
        if (p < 0) return path + ": the tree has no pose '" + name + "'";
        poses.push_back(p);
    }
    if (options.poses.empty())
        for (size_t p = 0; p < tree.poses.size(); ++p) poses.push_back(int(p));
    const LeafCellList cells = options.cells ? leafCells(tree) : LeafCellList{};

    SceneBuilder builder;
    for (const int p : poses) {
        const Pose& pose = tree.poses[size_t(p)];
        const unsigned material = builder.addMaterial(poseMaterial(pose));
        MeshBuilder surface;
        for (const LeafPolygon& lp : tree.polygons)
            if (lp.pose == p) surface.add(tree.polygons.vertices(lp), tree.planes[size_t(lp.plane)].normal);
        builder.addNode("pose:" + pose.name, surface, material);
        if (options.cells) {
            MeshBuilder open;
            for (size_t leaf = 0; leaf < cells.size(); ++leaf)
                if (!((tree.leafSolid[leaf] >> p) & 1u))
                    for (const ConvexFace& f : cells[leaf].faces) open.add(f.polygon.vertices, f.plane.normal);
            builder.addNode("cells:" + pose.name, open, material);
        }
        if (options.portals) {
            MeshBuilder portals;
            for (const Portal& portal : tree.portals)
                if ((portal.poses >> p) & 1u)
                    portals.add(tree.portals.vertices(portal), tree.planes[size_t(portal.plane)].normal);
            builder.addNode("portals:" + pose.name, portals, material);
        }
    }
    const std::unique_ptr<aiScene> scene = builder.finish();
    Assimp::Exporter exporter;
    if (exporter.Export(scene.get(), format, path) != aiReturn_SUCCESS) return path + ": " + exporter.GetErrorString();
    return {};
}

} // namespace shallot
