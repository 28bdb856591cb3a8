#pragma once
// The Entity dock: the class new entities get (the Entity tool, N, places them) and the
// selected entities' keys and values, editable, with keys added and removed. Each edit is
// one undo step applied to every selected entity.
#include <QDockWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace shallot {

class Editor;

class EntityDock : public QDockWidget {
    Q_OBJECT
public:
    explicit EntityDock(Editor& editor, QWidget* parent = nullptr);
    QComboBox* classChooser() const { return classes_; }
    QTableWidget* keyTable() const { return keys_; }

private:
    void refillClasses();
    void refreshKeys();
    void keyEdited(int row, int column);
    void addKey();
    void removeKey();
    // Sets `key` to `value` in every selected entity (renaming `oldKey` when it differs).
    void applyKey(const std::string& oldKey, const std::string& key, const std::string& value);

    Editor& editor_;
    QComboBox* classes_;
    QLabel* summary_;
    QTableWidget* keys_;
    QPushButton* add_;
    QPushButton* remove_;
    bool refreshing_ = false;
};

} // namespace shallot
