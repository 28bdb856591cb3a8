#include "query_path.h"

#include "cli_common.h"
#include "movers/travel_reach.h"
#include "nav/nav_path.h"
#include "query_processor.h"

#include <QJsonArray>
#include <charconv>
#include <cmath>
#include <limits>

namespace shallot::cli {

namespace {

// Heights and lengths of the walking rules are at most this (a hostile query must not make
// a jump probe thousands of columns per edge).
constexpr double kMaxNavLength = 1024.0;

bool validLength(double v) { return std::isfinite(v) && v >= 0.0 && v <= kMaxNavLength; }
bool validSlope(double v) { return std::isfinite(v) && v > 0.0 && v <= 1.0; }

// The whole of `text` as a number.
bool parseNumber(const std::string& text, double& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, out);
    return error == std::errc() && ptr == end && !text.empty();
}

const std::string kLengthRange = "a number from 0 to 1024";

} // namespace

NavSettings NavOverrides::applied(NavSettings s) const {
    if (slope) s.walkableNormalZ = *slope;
    if (step) s.stepHeight = *step;
    if (drop) s.maxDrop = *drop;
    if (jump) s.jump = *jump;
    if (jumpHeight) s.jumpHeight = *jumpHeight;
    if (jumpLength) s.jumpLength = *jumpLength;
    return s;
}

int readNavFlag(const std::vector<std::string>& args, size_t& i, NavOverrides& out, std::string& error) {
    const std::string& flag = args[i];
    if (flag == "--no-jump") {
        out.jump = false;
        out.jumpHeight.reset();
        out.jumpLength.reset();
        return 1;
    }
    if (flag != "--step" && flag != "--drop" && flag != "--jump" && flag != "--slope") return 0;
    if (i + 1 >= args.size()) {
        error = flag + " needs a value";
        return -1;
    }
    const std::string& value = args[++i];
    double v = 0;
    if (flag == "--step") {
        if (!parseNumber(value, v) || !validLength(v)) return error = "--step must be " + kLengthRange, -1;
        out.step = v;
    } else if (flag == "--drop") {
        if (value == "any") out.drop = std::numeric_limits<double>::infinity();
        else if (parseNumber(value, v) && v >= 0.0 && std::isfinite(v)) out.drop = v;
        else return error = "--drop must be a number >= 0 or 'any'", -1;
    } else if (flag == "--slope") {
        if (!parseNumber(value, v) || !validSlope(v)) return error = "--slope must be a normal z in (0, 1]", -1;
        out.slope = v;
    } else { // --jump H,L
        const size_t comma = value.find(',');
        double h = 0, l = 0;
        if (comma == std::string::npos || !parseNumber(value.substr(0, comma), h) || !parseNumber(value.substr(comma + 1), l) ||
            !validLength(h) || !validLength(l))
            return error = "--jump must be HEIGHT,LENGTH, each " + kLengthRange, -1;
        out.jump = true;
        out.jumpHeight = h;
        out.jumpLength = l;
    }
    return 1;
}

bool readNavFields(const QJsonObject& query, NavOverrides& out, QString& error) {
    auto length = [&](const char* field, std::optional<double>& into) {
        const QJsonValue v = query.value(field);
        if (v.isUndefined()) return true;
        if (!v.isDouble() || !validLength(v.toDouble())) {
            error = QString("\"%1\" must be a number from 0 to 1024").arg(field);
            return false;
        }
        into = v.toDouble();
        return true;
    };
    if (!length("step", out.step)) return false;
    if (const QJsonValue drop = query.value("drop"); !drop.isUndefined()) {
        if (drop.isString() && drop.toString() == "any") out.drop = std::numeric_limits<double>::infinity();
        else if (drop.isDouble() && std::isfinite(drop.toDouble()) && drop.toDouble() >= 0.0) out.drop = drop.toDouble();
        else return error = "\"drop\" must be a number >= 0 or \"any\"", false;
    }
    if (const QJsonValue slope = query.value("slope"); !slope.isUndefined()) {
        if (!slope.isDouble() || !validSlope(slope.toDouble())) return error = "\"slope\" must be a normal z in (0, 1]", false;
        out.slope = slope.toDouble();
    }
    if (const QJsonValue jump = query.value("jump"); !jump.isUndefined()) {
        const QJsonArray hl = jump.toArray();
        if (jump.isBool()) {
            out.jump = jump.toBool();
        } else if (jump.isArray() && hl.size() == 2 && hl[0].isDouble() && hl[1].isDouble() && validLength(hl[0].toDouble()) &&
                   validLength(hl[1].toDouble())) {
            out.jump = true;
            out.jumpHeight = hl[0].toDouble();
            out.jumpLength = hl[1].toDouble();
        } else {
            return error = "\"jump\" must be [height, length] (each from 0 to 1024), true or false", false;
        }
    }
    return true;
}

QJsonObject navSettingsJson(const NavSettings& s) {
    QJsonObject o{{"slope", s.walkableNormalZ}, {"step", s.stepHeight}};
    o["drop"] = std::isinf(s.maxDrop) ? QJsonValue("any") : QJsonValue(s.maxDrop);
    o["jump"] = s.jump ? QJsonValue(QJsonArray{s.jumpHeight, s.jumpLength}) : QJsonValue(false);
    return o;
}

const PathQueries::Built& PathQueries::mesh(int pose, const NavSettings& settings) const {
    // Callers hold mutex_ (the entry may be dropped by a later call).
    for (size_t i = 0; i < meshes_.size(); ++i)
        if (meshes_[i].pose == pose && meshes_[i].settings == settings) {
            Built used = std::move(meshes_[i]);
            meshes_.erase(meshes_.begin() + std::ptrdiff_t(i));
            meshes_.push_back(std::move(used));
            return meshes_.back();
        }
    if (meshes_.size() >= kMaxMeshes) meshes_.erase(meshes_.begin());
    auto built = std::make_shared<const NavMesh>(buildNavMesh(tree_, pose, settings));
    static const TravelLevel kNoMovers;
    auto plain = std::make_shared<const TravelGraph>(buildTravelGraph(tree_, *built, tree_.poses[size_t(pose)], kNoMovers));
    auto travel = travel_ ? std::make_shared<const TravelGraph>(buildTravelGraph(tree_, *built, tree_.poses[size_t(pose)], *travel_)) : plain;
    meshes_.push_back({pose, settings, std::move(built), std::move(travel), std::move(plain)});
    return meshes_.back();
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
    NavOverrides fields;
    if (!readNavFields(query, fields, message)) return error(message);
    const QJsonValue travelField = query.value("travel");
    if (!travelField.isUndefined() && !travelField.isBool()) return error("\"travel\" must be true or false");
    const bool withMovers = travelField.toBool(true);
    const bool ownPoses = poses_ && poses_->size() == tree_.poses.size();
    const NavSettings& rules = (ownPoses ? (*poses_)[size_t(pose)] : tree_.poses[size_t(pose)]).nav;
    const NavSettings settings = fields.applied(overrides_.applied(rules));
    std::shared_ptr<const NavMesh> m;
    std::shared_ptr<const TravelGraph> travel;
    {
        const std::lock_guard lock(mutex_);
        const Built& built = mesh(pose, settings);
        m = built.mesh;
        travel = withMovers ? built.travel : built.plain;
    }
    const TravelPath path = findTravelPath(tree_, *travel, from, to);
    QJsonArray points, steps;
    for (const Vec3& p : path.points) points.append(toJson(p));
    for (const TravelStep& s : path.travel) {
        QJsonObject step{{"type", travelKindName(s.kind)}, {"from", toJson(s.from)}, {"to", toJson(s.to)}, {"seconds", s.seconds}};
        if (s.entity >= 0) step["entity"] = s.entity;
        if (!s.via.empty()) { // a swim round corners: the points between from and to
            QJsonArray via;
            for (const Vec3& v : s.via) via.append(toJson(v));
            step["via"] = via;
        }
        steps.append(step);
    }
    return QJsonObject{{"found", path.found}, {"length", path.length}, {"points", points}, {"time", path.seconds}, {"travel", steps}};
}

} // namespace shallot::cli
