#pragma once
// The colour legend in a view's corner: every colour the view shows, named once, one
// compact line each (Help > Keys and Overlays explains them at length). It takes at most
// kLegendMaxViewShare of its view; when the list does not fit in that, it collapses to a
// small key that the mouse opens.
#include <QColor>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <optional>
#include <vector>

class QPainter;

namespace shallot {

class Editor;

// The most of its view a legend covers while nobody asks for it: a fifth of the area, so
// the level stays visible with every overlay on.
inline constexpr double kLegendMaxViewShare = 0.2;

struct LegendEntry {
    QColor colour;
    QString text;
    bool line = false; // drawn as lines (a stroke swatch), else as filled areas
};

// What a view shows now: the 3D view, or a 2D view (sections, with the void, when on).
std::vector<LegendEntry> viewLegend(const Editor& editor, bool view3d);

// Where a legend's lines go in a view: in columns, each line's text elided to fit, in the
// bottom right corner of the view.
struct LegendLayout {
    QRectF box;
    int columns = 1;
    double row = 0, column = 0; // a line's height, a column's width
    double textWidth = 0;       // room for a line's text (longer ones are elided)
    // Within kLegendMaxViewShare of the view (else the layout is the smallest that fits
    // in the view at all, shown only when the mouse opens it).
    bool withinShare = false;
    bool elided = false; // some text is shortened
};
// `whole`: the texts as long as the view allows, whatever the share (the mouse asked).
LegendLayout layoutLegend(const std::vector<LegendEntry>& entries, const QRectF& view, const QFontMetricsF& metrics,
                          bool whole = false);

// A view's legend and its collapsed key, with what the mouse did to them.
class LegendBox {
public:
    // Paints the legend, or its key, in the bottom right corner of `view`.
    void paint(QPainter& painter, const QRectF& view, const std::vector<LegendEntry>& entries);
    // The mouse moved to `pos` (nothing: it left the view); true when what shows changed.
    bool hover(std::optional<QPointF> pos);
    // A left click at `pos`: true when it was taken: on the key or on the legend the mouse
    // opened from it, which it pins open, or on a pinned legend, which it folds again. A
    // legend open because it fits takes no clicks, the mouse on it or not (a drag under it
    // reaches the tools).
    bool click(const QPointF& pos);
    // What the last paint showed: the whole legend or the key, and where, and whether a text
    // was shortened (an open legend shortens its texts to keep within its share until the
    // mouse is on it: then they are whole).
    bool open() const { return open_; }
    QRectF shown() const { return shown_; }
    bool elided() const { return elided_; }

private:
    enum class Choice { Auto, Open };
    Choice choice_ = Choice::Auto; // by clicks: Auto opens it when it fits in its share or is hovered
    bool hovered_ = false;          // the mouse is on the key or the legend it opened
    bool open_ = false;
    bool fits_ = false; // within its share (texts shortened): open without the mouse
    bool elided_ = false;
    QRectF shown_;
};

} // namespace shallot
