#include "query_reach.h"

#include "portal/reachability.h"
#include "query_processor.h"

namespace shallot::cli {

QJsonObject answerReach(const BspTree& tree, const QJsonObject& query, bool& ok) {
    auto error = [&](const QString& message) {
        ok = false;
        return QJsonObject{{"error", message}};
    };
    const QJsonValue poseName = query.value("pose");
    if (!poseName.isString()) return error("\"pose\" must be a pose name");
    const int pose = tree.poseIndex(poseName.toString().toStdString());
    if (pose < 0) return error("unknown pose \"" + poseName.toString() + "\"");
    Vec3 from, to;
    if (!readPoint(query.value("from"), from)) return error("\"from\" must be an array of 3 finite numbers");
    if (!readPoint(query.value("to"), to)) return error("\"to\" must be an array of 3 finite numbers");
    const ReachAnswer a = reachBetween(tree, pose, from, to);
    return QJsonObject{{"reachable", a.reachable}, {"from_leaf", a.fromLeaf}, {"to_leaf", a.toLeaf}};
}

} // namespace shallot::cli
