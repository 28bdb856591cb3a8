#pragma once
#include "compile/bsp_tree.h"
#include "nav/nav_mesh.h"

#include <QJsonObject>
#include <map>
#include <memory>
#include <mutex>

namespace shallot::cli {

// The query op {"op":"path","pose":"<name>","from":[x,y,z],"to":[x,y,z]}: the walking path
// of an agent in that pose (nav/nav_path.h, Quake's ground, step and drop rules), each end
// dropped straight down onto the floor below it first.
//   -> {"found":bool,"length":L,"points":[[x,y,z],...]}
// points: the path's corners, each where the pose's reference point rests on a floor (a
// step or drop is its takeoff point, then its landing point); not found: length 0, no
// points. The pose's navigation mesh is built on the first path query for it.
class PathQueries {
public:
    explicit PathQueries(const BspTree& tree) : tree_(tree) {}
    QJsonObject answer(const QJsonObject& query, bool& ok) const;

private:
    const NavMesh& mesh(int pose) const;

    const BspTree& tree_;
    mutable std::mutex mutex_;
    mutable std::map<int, std::unique_ptr<const NavMesh>> meshes_;
};

} // namespace shallot::cli
