#pragma once
// A tool's note (Editor::toolNote) drawn at its point in a view: on a dark ground beside the
// cursor, word-wrapped to fit the view so that it is read whole (a status bar cuts it); and a
// one-line label at a point (a path's length or why there is none), whole inside the view.
#include <QColor>
#include <QPointF>
#include <QRectF>
#include <QString>

class QPainter;

namespace shallot {

// Paints `text` beside `at` inside `view`; the rectangle it took.
QRectF paintToolNote(QPainter& painter, const QRectF& view, const QPointF& at, const QString& text);
// Paints `text` in `colour` on one line above and right of `at` (left of it, or below it,
// where the view's edge would cut it), on a dark ground; the rectangle it took.
QRectF paintPointLabel(QPainter& painter, const QRectF& view, const QPointF& at, const QString& text, const QColor& colour);

} // namespace shallot
