#pragma once
// Long tooltips wrapped: Qt draws a plain-text tooltip on one line however long it is (a
// sentence across the screen) and wraps rich text, so a long plain one is made rich text.
#include <QString>

class QObject;

namespace shallot {

// Plain tooltips at most this long stay one line (a short label reads better unwrapped).
inline constexpr int kTooltipWrapChars = 60;

// `text` as rich text that Qt wraps when longer than kTooltipWrapChars and not rich text
// already; else `text`.
QString wrappedTooltip(const QString& text);

// wrappedTooltip over the tooltips of `root` and every widget and action under it.
void wrapLongTooltips(QObject* root);

} // namespace shallot
