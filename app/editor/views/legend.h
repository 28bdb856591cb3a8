#pragma once
// The colour legend in a view's corner: every colour the view shows, named (Help > Keys and
// Overlays explains them at length).
#include <QColor>
#include <QRectF>
#include <QString>
#include <vector>

class QPainter;

namespace shallot {

class Editor;

struct LegendEntry {
    QColor colour;
    QString text;
    bool line = false; // drawn as lines (a stroke swatch), else as filled areas
};

// What a view shows now: the 3D view, or a 2D view (sections, with the void, when on).
std::vector<LegendEntry> viewLegend(const Editor& editor, bool view3d);

// Paints the legend in the bottom right corner of `area`; the rectangle it took.
QRectF paintLegend(QPainter& painter, const QRectF& area, const std::vector<LegendEntry>& entries);

} // namespace shallot
