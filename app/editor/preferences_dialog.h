#pragma once
// Edit > Preferences: key bindings of every named action and the views' background
// colour, kept in QSettings ("shortcuts/<action>", "colours/background").
#include <QColor>
#include <QDialog>

class QTableWidget;
class QMainWindow;

namespace shallot {

// The views' background colour from the settings (dark grey by default).
QColor backgroundColour();

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QMainWindow& window);
    // Writes the edited bindings and colour to the settings and applies them.
    void apply();

private:
    QMainWindow& window_;
    QTableWidget* bindings_;
    QColor background_;
};

} // namespace shallot
