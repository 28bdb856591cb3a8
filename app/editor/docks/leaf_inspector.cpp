#include "docks/leaf_inspector.h"

#include "docks/light_reading.h"
#include "editor.h"
#include "services/light_service.h"
#include "services/overlay_controller.h"

#include <QLabel>
#include <QPushButton>
#include <QStringList>
#include <QVBoxLayout>

namespace shallot {

namespace {
const char* const kNothingInspected = "Use the Inspect tool (I) in a view, or a ray's start.";

// The brushes whose inside holds `p`, with their contents ("3 playerclip, 7 solid"): why a
// pose is solid there, or why not.
QString brushesAt(const std::vector<Brush>& brushes, const Vec3& p) {
    QStringList found;
    for (size_t i = 0; i < brushes.size(); ++i) {
        const auto& sides = brushes[i].sides;
        const bool inside = !sides.empty() && std::all_of(sides.begin(), sides.end(), [&](const BrushSide& s) {
            return s.plane.signedDistance(p) < 0;
        });
        if (inside) found << QString("%1 %2").arg(i).arg(QString::fromStdString(contentsName(brushes[i].contents)));
    }
    return found.isEmpty() ? QString("none") : found.join(", ");
}
} // namespace

LeafInspector::LeafInspector(Editor& editor, QWidget* parent) : QDockWidget("Leaf inspector", parent), editor_(editor) {
    setObjectName("LeafInspector");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    label_ = new QLabel(kNothingInspected, body);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    label_->setWordWrap(true);
    layout->addWidget(label_);
    auto* reach = new QPushButton("Reach from this point", body);
    reach->setToolTip("Flood the current pose's empty space from here (Reachability overlay, leak path)");
    connect(reach, &QPushButton::clicked, this, [this] {
        if (!point_) return;
        editor_.overlays().setReachStart(*point_);
        editor_.overlays().setOn(Overlay::Reach, true);
    });
    layout->addWidget(reach);
    layout->addStretch();
    setWidget(body);
    connect(&editor_.compiler(), &CompileService::compiled, this, &LeafInspector::refresh);
    connect(&editor_.lighting(), &LightService::updated, this, &LeafInspector::refresh);
}

QString LeafInspector::text() const { return label_->text(); }

void LeafInspector::clear() {
    point_.reset();
    label_->setText(kNothingInspected);
}

void LeafInspector::inspect(const Vec3& point) {
    point_ = point;
    refresh();
}

void LeafInspector::refresh() {
    const auto& compiled = editor_.overlays().compiled();
    if (!point_ || !compiled) return;
    const BspTree& tree = compiled->result->onion;
    const int32_t leaf = tree.findLeaf(*point_);
    const LeafInfo& info = tree.leaves[size_t(leaf)];
    const uint64_t bits = tree.leafSolid[size_t(leaf)];
    QString text = QString("Point %1 %2 %3\nLeaf %4   depth %5\n")
                       .arg(point_->x()).arg(point_->y()).arg(point_->z()).arg(leaf).arg(info.depth);
    for (size_t p = 0; p < tree.poses.size(); ++p)
        text += QString("  %1: %2\n").arg(QString::fromStdString(tree.poses[p].name), (bits >> p) & 1u ? "solid" : "empty");
    text += QString("Inside brushes %1\n").arg(brushesAt(editor_.document().brushes(), *point_));
    text += QString("Cell volume %1\nPolygons %2\nInterior point %3 %4 %5 (clearance %6)%7")
                .arg(info.volume, 0, 'g', 8)
                .arg(info.polygonCount)
                .arg(info.interiorPoint.x()).arg(info.interiorPoint.y()).arg(info.interiorPoint.z())
                .arg(info.clearance, 0, 'g', 4)
                .arg(info.degenerate ? "\nDegenerate cell" : "");
    if (const QString light = lightReadingText(editor_.lighting(), editor_.document(), *point_); !light.isEmpty())
        text += "\n" + light;
    label_->setText(text);
    editor_.overlays().setHighlightLeaf(leaf);
}

} // namespace shallot
