#pragma once
// Help > Keys and Overlays: resources/help/keys.md, the same tables the README shows (a test
// keeps the two the same), rendered in a dialog; its rows also give the tools' and overlays'
// tooltips.
#include <QString>
#include <vector>

class QWidget;

namespace shallot {

// The page's Markdown text.
QString keysAndOverlaysMarkdown();

// A row of one of the page's tables: what it is, its key, what it does.
struct HelpRow {
    QString name, key, what;
};
std::vector<HelpRow> helpRows();
// The tooltip for the row named `name` ("what it does (key)"), or empty when none is.
QString helpTooltip(const QString& name);

// Shows the page (non-modal).
void showKeysAndOverlays(QWidget* parent);

} // namespace shallot
