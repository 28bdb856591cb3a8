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
    QString message;
    const int pose = readPose(tree_, query, message);
    if (pose < 0) return error(message);
    Vec3 from, to;
    if (!readQueryPoint(query.value("from"), from)) return error(pointError("from"));
    if (!readQueryPoint(query.value("to"), to)) return error(pointError("to"));
    const NavPath path = findPath(tree_, mesh(pose), from, to);
    QJsonArray points;
    for (const Vec3& p : path.points) points.append(toJson(p));
    return QJsonObject{{"found", path.found}, {"length", path.length}, {"points", points}};
}

} // namespace shallot::cli
