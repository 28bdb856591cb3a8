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
// A point's label starts this far right of and above its point.
constexpr double kLabelOffsetPixels = 8.0;
// The dark ground under notes and labels, and the text's distance from its edge.
const QColor kGround(20, 20, 24, 225);
constexpr double kPadX = 3.0, kPadY = 2.0;

// `box` moved inside `view` (its top left edge kept when it is larger).
QRectF keptInside(QRectF box, const QRectF& view) {
    box.moveRight(std::min(box.right(), view.right() - kMarginPixels));
    box.moveBottom(std::min(box.bottom(), view.bottom() - kMarginPixels));
    box.moveLeft(std::max(box.left(), view.left() + kMarginPixels));
    box.moveTop(std::max(box.top(), view.top() + kMarginPixels));
    return box;
}
} // namespace

QRectF paintToolNote(QPainter& painter, const QRectF& view, const QPointF& at, const QString& text) {
    if (text.isEmpty()) return {};
    const double width = std::max(40.0, std::min(kMaxWidthPixels, view.width() - 2 * kMarginPixels));
    const QFontMetricsF metrics(painter.font());
    const int flags = Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop;
    QRectF box = metrics.boundingRect(QRectF(0, 0, width, 1e6), flags, text).adjusted(-kPadX, -kPadY, kPadX, kPadY);
    // Right of and below the cursor, moved back inside the view where it would leave it
    // (to the cursor's other side first).
    box.moveTopLeft(at + QPointF(kOffsetPixels, kOffsetPixels));
    if (box.right() > view.right() - kMarginPixels) box.moveRight(at.x() - kOffsetPixels);
    if (box.bottom() > view.bottom() - kMarginPixels) box.moveBottom(at.y() - kOffsetPixels);
    box = keptInside(box, view);
    painter.fillRect(box, kGround);
    painter.setPen(QColor(255, 170, 150));
    painter.drawText(box.adjusted(kPadX, kPadY, -kPadX, -kPadY), flags, text);
    return box;
}

QRectF paintPointLabel(QPainter& painter, const QRectF& view, const QPointF& at, const QString& text, const QColor& colour) {
    if (text.isEmpty()) return {};
    const QFontMetricsF metrics(painter.font());
    QRectF box = QRectF(0, 0, metrics.horizontalAdvance(text), metrics.height()).adjusted(-kPadX, -kPadY, kPadX, kPadY);
    box.moveBottomLeft(at + QPointF(kLabelOffsetPixels, -kLabelOffsetPixels));
    if (box.right() > view.right() - kMarginPixels) box.moveRight(at.x() - kLabelOffsetPixels);
    if (box.top() < view.top() + kMarginPixels) box.moveTop(at.y() + kLabelOffsetPixels);
    box = keptInside(box, view);
    painter.fillRect(box, kGround);
    painter.setPen(colour);
    painter.drawText(box.adjusted(kPadX, kPadY, -kPadX, -kPadY), Qt::AlignLeft | Qt::AlignVCenter, text);
    return box;
}

} // namespace shallot
