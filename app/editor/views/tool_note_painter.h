#pragma once
// A tool's note (Editor::toolNote) drawn at its point in a view: on a dark ground beside the
// cursor, word-wrapped to fit the view so that it is read whole (a status bar cuts it).
#include <QPointF>
#include <QRectF>
#include <QString>

class QPainter;

namespace shallot {

// Paints `text` beside `at` inside `view`; the rectangle it took.
QRectF paintToolNote(QPainter& painter, const QRectF& view, const QPointF& at, const QString& text);

} // namespace shallot
