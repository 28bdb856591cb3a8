#include "query_light.h"

#include "query_processor.h"

#include "light/light_lookup.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"

#include <QJsonArray>
#include <algorithm>
#include <iostream>
#include <thread>

namespace shallot::cli {

namespace {

QJsonObject error(const QString& message, bool& ok) {
    ok = false;
    return QJsonObject{{"error", message}};
}

} // namespace

const LevelLighting* LightQueries::lighting(QString& message) const {
    std::call_once(lightOnce_, [&] {
        if (!world_ || !entities_) {
            error_ = "no lightmaps: a .obsp stores none; query the .map or .shallot";
            return;
        }
        const int pose = pointPoseIndex(tree_.poses);
        if (pose < 0) {
            error_ = "lighting needs a point pose (its tree gives the shadows) and the tree has none";
            return;
        }
        const int threads = int(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
        const LightInput input{&world_->brushes, entities_, world_->bounds, file_};
        lit_ = std::make_unique<LevelLighting>(lightLevelInTree(input, tree_, pose, threads));
        for (const std::string& w : lit_->warnings) std::cerr << "warning: " << w << "\n";
    });
    message = error_;
    return lit_.get();
}

QJsonObject LightQueries::answer(const QJsonObject& query, bool& ok) const {
    Vec3 p, normal;
    if (!readQueryPoint(query.value("p"), p)) return error(pointError("p"), ok);
    if (!readQueryPoint(query.value("normal"), normal) || normal.norm() == 0)
        return error("\"normal\" must be an array of 3 finite numbers, not all 0", ok);
    QString message;
    const LevelLighting* lit = lighting(message);
    if (!lit) return error(message, ok);
    std::string why;
    const std::optional<LightReading> r = readLight(*lit, p, normal.normalized(), why);
    if (!r) return error(QString::fromStdString(why), ok);
    return QJsonObject{{"light", r->light}, {"color", QJsonArray{r->color[0], r->color[1], r->color[2]}}};
}

} // namespace shallot::cli
