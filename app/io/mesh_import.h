#pragma once
// Meshes as brushes: any format Assimp reads (OBJ, glTF/GLB, FBX, PLY, STL...). Each mesh,
// or each connected part of it, becomes the convex hull of its vertices (Qhull).
#include "world/brush.h"

#include <string>
#include <vector>

namespace shallot {

// A file with more parts than this is refused (a scan or a forest, not level geometry).
inline constexpr size_t kMaxImportedParts = 65536;

// A part is reported as not convex when a triangle of its surface does not lie on a face
// of its hull, within this fraction of the part's size (the diagonal of its bounding box).
inline constexpr double kConvexityTolerance = 1e-6;

struct MeshImportOptions {
    bool splitConnectedParts = false; // each connected part of a mesh becomes its own brush
    double scale = 1.0;               // applied after the file's own node transforms
    bool yUp = false;                 // the file is Y-up (glTF's convention): turn +Y into +Z
};

struct MeshImportResult {
    std::vector<Brush> brushes;         // sides from the hull's facets, coplanar facets merged
    std::vector<std::string> partNames; // one per brush: "node", "node/mesh", "node part 2"...
    std::vector<std::string> warnings;  // "file: part 'NAME' is not convex: ...", skipped flat parts
    std::string error;                  // "file: what went wrong"; set when nothing was imported
};

// Imports every mesh of the scene at `path`, with its node transforms applied.
MeshImportResult importMeshBrushes(const std::string& path, const MeshImportOptions& options = {});

} // namespace shallot
