#include "query_path.h"

#include "cli_common.h"
#include "nav/nav_path.h"
#include "query_processor.h"

#include <QJsonArray>

namespace shallot::cli {

const NavMesh& PathQueries::mesh(int pose) const {
    const std::lock_guard lock(mutex_);
    std::unique_ptr<const NavMesh>& m = meshes_[pose];
    if (!m) m = std::make_unique<const NavMesh>(buildNavMesh(tree_, pose));
    return *m;
}

QJsonObject PathQueries::answer(const QJsonObject& query, bool& ok) const {
    auto error = [&](const QString& message) {
        ok = false;
        return QJsonObject{{"error", message}};
    };
    const QJsonValue poseName = query.value("pose");
    if (!poseName.isString()) return error("\"pose\" must be a pose name");
    const int pose = tree_.poseIndex(poseName.toString().toStdString());
    if (pose < 0) return error("unknown pose \"" + poseName.toString() + "\"");
    Vec3 from, to;
    auto inRange = [](const Vec3& p) { return p.cwiseAbs().maxCoeff() <= kMaxQueryCoordinate; };
    if (!readPoint(query.value("from"), from) || !inRange(from))
        return error(QString("\"from\" must be an array of 3 finite numbers within +-%1").arg(kMaxQueryCoordinate));
    if (!readPoint(query.value("to"), to) || !inRange(to))
        return error(QString("\"to\" must be an array of 3 finite numbers within +-%1").arg(kMaxQueryCoordinate));
    const NavPath path = findPath(tree_, mesh(pose), from, to);
    QJsonArray points;
    for (const Vec3& p : path.points) points.append(toJson(p));
    return QJsonObject{{"found", path.found}, {"length", path.length}, {"points", points}};
}

} // namespace shallot::cli
