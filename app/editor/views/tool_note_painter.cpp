#include "views/tool_note_painter.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

namespace shallot {

namespace {
// The note starts this far right of and below the cursor (clear of the pointer's arrow).
constexpr double kOffsetPixels = 14.0;
// Lines are wrapped at this width, or the view's width less the margins when narrower.
constexpr double kMaxWidthPixels = 360.0;
constexpr double kMarginPixels = 4.0;
} // namespace

QRectF paintToolNote(QPainter& painter, const QRectF& view, const QPointF& at, const QString& text) {
    if (text.isEmpty()) return {};
    const double width = std::max(40.0, std::min(kMaxWidthPixels, view.width() - 2 * kMarginPixels));
    const QFontMetricsF metrics(painter.font());
    const int flags = Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop;
    QRectF box = metrics.boundingRect(QRectF(0, 0, width, 1e6), flags, text).adjusted(-3, -2, 3, 2);
    // Right of and below the cursor, moved back inside the view where it would leave it
    // (to the cursor's other side first).
    box.moveTopLeft(at + QPointF(kOffsetPixels, kOffsetPixels));
    if (box.right() > view.right() - kMarginPixels) box.moveRight(at.x() - kOffsetPixels);
    if (box.bottom() > view.bottom() - kMarginPixels) box.moveBottom(at.y() - kOffsetPixels);
    box.moveLeft(std::max(box.left(), view.left() + kMarginPixels));
    box.moveTop(std::max(box.top(), view.top() + kMarginPixels));
    painter.fillRect(box, QColor(20, 20, 24, 225));
    painter.setPen(QColor(255, 170, 150));
    painter.drawText(box.adjusted(3, 2, -3, -2), flags, text);
    return box;
}

} // namespace shallot
