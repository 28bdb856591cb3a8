#pragma once
// A compiled tree as a mesh file for other tools (Blender, game engines): glTF 2.0 binary
// (.glb), glTF 2.0 text (.gltf + .bin) or OBJ (+ .mtl), written by Assimp's exporter.
#include "compile/bsp_tree.h"

#include <string>
#include <vector>

namespace shallot {

struct MeshExportOptions {
    std::vector<std::string> poses; // names of the poses to export; empty: all of them
    bool cells = false;             // also the cells of the leaves empty for each pose
    bool portals = false;           // also the portals open for each pose
};

// Writes, per exported pose, a node "pose:<name>" holding the union surface (the tree's
// leaf polygons of that pose), and with the options "cells:<name>" and "portals:<name>".
// Polygons are triangulated as fans with flat normals; each pose has its own material in
// the pose colour. Coordinates are Shallot's own (Z up), not converted to glTF's Y up.
// Returns an error message, or empty on success.
std::string exportTreeMesh(const BspTree& tree, const std::string& path, const MeshExportOptions& options = {});

} // namespace shallot
