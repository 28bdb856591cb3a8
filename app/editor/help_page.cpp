#include "help_page.h"

#include <QDialog>
#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace shallot {

QString keysAndOverlaysMarkdown() {
    QFile file(":/help/keys.md");
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

std::vector<HelpRow> helpRows() {
    std::vector<HelpRow> rows;
    for (const QString& line : keysAndOverlaysMarkdown().split('\n')) {
        if (!line.startsWith("| ")) continue;
        const QStringList cells = line.mid(2, line.size() - 4).split(" | ");
        if (cells.size() == 3) rows.push_back({cells[0].trimmed(), cells[1].trimmed(), cells[2].trimmed()});
    }
    return rows;
}

QString helpTooltip(const QString& name) {
    for (const HelpRow& row : helpRows())
        if (row.name == name) {
            QString what = row.what;
            what[0] = what[0].toUpper();
            return QString("%1 (%2)").arg(what, row.key);
        }
    return {};
}

void showKeysAndOverlays(QWidget* parent) {
    auto* dialog = new QDialog(parent);
    dialog->setObjectName("keysAndOverlays");
    dialog->setWindowTitle("Keys and Overlays");
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto* text = new QTextBrowser(dialog);
    text->setMarkdown(keysAndOverlaysMarkdown());
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    dialog->resize(900, 700);
    dialog->show();
}

} // namespace shallot
