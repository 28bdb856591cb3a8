#include "wrapped_tooltips.h"

#include <QAction>
#include <QTextDocument>
#include <QWidget>

namespace shallot {

QString wrappedTooltip(const QString& text) {
    if (text.size() <= kTooltipWrapChars || Qt::mightBeRichText(text)) return text;
    return "<p>" + text.toHtmlEscaped() + "</p>";
}

void wrapLongTooltips(QObject* root) {
    // Set only when it changes: an action without a tooltip of its own shows its text,
    // which may change later.
    const auto wrap = [](auto* o) {
        if (const QString wrapped = wrappedTooltip(o->toolTip()); wrapped != o->toolTip()) o->setToolTip(wrapped);
    };
    if (auto* w = qobject_cast<QWidget*>(root)) wrap(w);
    for (QWidget* w : root->findChildren<QWidget*>()) wrap(w);
    for (QAction* a : root->findChildren<QAction*>()) wrap(a);
}

} // namespace shallot
