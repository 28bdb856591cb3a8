#include "docks/pose_shape_cell.h"

#include <QRegularExpression>
#include <cmath>

namespace shallot {

namespace {

constexpr const char* kBoxWord = "box";

QString cornersText(const Pose& p) {
    return QString("%1 %2 %3 %4 %5 %6").arg(p.mins.x()).arg(p.mins.y()).arg(p.mins.z()).arg(p.maxs.x()).arg(p.maxs.y()).arg(p.maxs.z());
}

// "minx miny minz maxx maxy maxz" (spaces or commas between) into the pose; false when it
// is not six finite numbers.
bool parseCorners(const QString& text, Pose& pose) {
    const QStringList parts = QString(text).replace(',', ' ').split(' ', Qt::SkipEmptyParts);
    if (parts.size() != 6) return false;
    double v[6];
    for (int k = 0; k < 6; ++k) {
        bool ok = false;
        v[k] = parts[k].toDouble(&ok);
        if (!ok || !std::isfinite(v[k])) return false;
    }
    pose.mins = Vec3(v[0], v[1], v[2]);
    pose.maxs = Vec3(v[3], v[4], v[5]);
    pose.shape = {};
    return true;
}

// "capsule 16 56", "capsule: 16, 56" and the like as the core's "capsule:16,56".
QString canonicalRoundText(const QString& text) {
    const QStringList parts = text.split(QRegularExpression("[\\s:,]+"), Qt::SkipEmptyParts);
    return parts.value(0) + ":" + parts.mid(1).join(",");
}

} // namespace

QString poseShapeSummary(const Pose& p) {
    if (p.shape.isRound()) {
        const QString kind = p.shape.kind == PoseShapeKind::Capsule ? "capsule" : "ellipsoid";
        return QString("%1 %2×%3").arg(kind).arg(p.shape.radius).arg(p.shape.height);
    }
    if (p.isPoint()) return "point";
    const Vec3 size = p.maxs - p.mins;
    return QString("%1×%2×%3").arg(size.x()).arg(size.y()).arg(size.z());
}

QString poseShapeEditText(const Pose& p) {
    return p.shape.isRound() ? QString::fromStdString(poseShapeText(p.shape)) : cornersText(p);
}

QString poseShapeTooltip(const Pose& p) {
    const QString box = QString("mins %1 %2 %3, maxs %4 %5 %6").arg(p.mins.x()).arg(p.mins.y()).arg(p.mins.z()).arg(p.maxs.x()).arg(p.maxs.y()).arg(p.maxs.z());
    if (p.shape.kind == PoseShapeKind::Capsule)
        return QString("Capsule: radius %1, height %2, centred on the reference point (bounding box %3)").arg(p.shape.radius).arg(p.shape.height).arg(box);
    if (p.shape.kind == PoseShapeKind::Ellipsoid)
        return QString("Ellipsoid: radius %1 across, %2 up, centred on the reference point (bounding box %3)").arg(p.shape.radius).arg(p.shape.height).arg(box);
    return box;
}

QString applyPoseShapeText(const QString& text, Pose& pose) {
    if (text == kBoxWord) {
        pose.shape = {}; // a round pose keeps its bounding box as its box
        return {};
    }
    if (text.startsWith("capsule") || text.startsWith("ellipsoid")) {
        const PoseShapeParse parsed = parsePoseShape(canonicalRoundText(text).toStdString());
        if (!parsed.shape) return QString("\"%1\": %2.").arg(text, QString::fromStdString(parsed.error));
        const Pose round = Pose::round(pose.name, *parsed.shape);
        pose.shape = round.shape;
        pose.mins = round.mins;
        pose.maxs = round.maxs;
        return {};
    }
    if (parseCorners(text, pose)) return {};
    return QString("\"%1\" is not a shape: type a box's corners (minx miny minz maxx maxy maxz), "
                   "capsule:RADIUS,HEIGHT, ellipsoid:ACROSS,UP or \"box\".").arg(text);
}

} // namespace shallot
