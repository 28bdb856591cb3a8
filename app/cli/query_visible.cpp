#include "query_visible.h"

#include "cli_common.h"
#include "query_processor.h"

#include "portal/leaf_visibility.h"
#include "query/point_visibility.h"

#include <algorithm>
#include <iostream>
#include <thread>

namespace shallot::cli {

const TreePvs* VisibleQueries::pvs() const {
    if (stored_) return stored_;
    if (!world_) return nullptr;
    std::call_once(computeOnce_, [&] {
        TreePvsSettings settings;
        settings.threads = int(std::max(1u, std::thread::hardware_concurrency()));
        TreePvsResult result = computeTreePvs(tree_, world_->brushes, settings);
        if (!result.pvs) std::cerr << "warning: no PVS for the visible queries: " << result.error << "\n";
        computed_ = std::move(result.pvs);
    });
    return computed_ ? &*computed_ : nullptr;
}

QJsonObject VisibleQueries::answer(const QJsonObject& query, bool& ok) const {
    Vec3 from, to;
    const auto error = [&](const QString& message) {
        ok = false;
        return QJsonObject{{"error", message}};
    };
    if (!readQueryPoint(query.value("from"), from)) return error(pointError("from"));
    if (!readQueryPoint(query.value("to"), to)) return error(pointError("to"));
    const int sight = sightPose(tree_);
    if (sight < 0) return error("the tree has no sight pose (a point pose at the reference point): nothing sees");
    const TreePvs* known = pvs();
    const PointVisibility v = pointVisibility(tree_, known ? known->pose : sight, known, from, to);
    return QJsonObject{{"pvs", v.pvs},
                       {"pvs_known", v.pvsKnown},
                       {"clear", v.clear},
                       {"from_leaf", v.fromLeaf},
                       {"to_leaf", v.toLeaf}};
}

} // namespace shallot::cli
