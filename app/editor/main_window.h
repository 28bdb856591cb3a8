#pragma once
// The editor window: a 3D view and three 2D views in splitters, docks for poses, rays,
// problems and the undo history, menus and toolbar, file handling and autosave.
#include "editor.h"

#include <QMainWindow>
#include <QTimer>

class QLabel;
class QActionGroup;

namespace shallot {

class Viewport3D;
class Viewport2D;
class PoseDock;
class ProblemsDock;
class RayDock;
class LeafInspector;
class EntityDock;
class FileWatch;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // `interactive` false (tests, --screenshot): never shows modal dialogs; errors go to
    // lastError() and stderr instead.
    explicit MainWindow(bool interactive = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    Editor& editor() { return *editor_; }
    Viewport3D* view3d() const { return view3d_; }
    Viewport2D* view2d(int index) const { return views2d_[index]; }
    PoseDock* poseDock() const { return poseDock_; }
    ProblemsDock* problemsDock() const { return problemsDock_; }
    RayDock* rayDock() const { return rayDock_; }
    LeafInspector* leafInspector() const { return leafInspector_; }
    EntityDock* entityDock() const { return entityDock_; }
    QLabel* compileStatus() const { return compileLabel_; }
    QString lastError() const { return lastError_; }

    bool openFile(const QString& path);     // .shallot, .map or a mesh; false + error on failure
    bool saveTo(const QString& path);       // .shallot or .map
    void newDocument();
    // Fits every view to the document's brushes.
    void frameAll();
    // The 3D camera at the first player start's eye, looking along its angle (and, with
    // `frame2d`, the 2D views around it). False when the level has none.
    bool goToPlayerStart(bool frame2d);
    // The followed .map changed on disk (another editor saved it): reload it, keeping the
    // camera, poses, rays and grid; with unsaved edits, ask first (never when not interactive).
    void reloadChangedFile(const QString& path);
    FileWatch* fileWatch() const { return fileWatch_; }
    // Reads a .fgd into the document (one undo step); false + error when it cannot be read.
    bool loadEntityDefinitions(const QString& path);
    // Shows only the 3D view in the central area (View > Maximize 3D View).
    void setSingleView(bool on);
    QAction* action(const QString& objectName) const;
    // Where Save As and Export start: the document's or the opened file's folder and name
    // with `extension`, or the documents folder for an installed or read-only one
    // (document/save_location.h).
    QString proposedSavePath(const QString& extension) const;

    // Autosave: where the recovery file of this session lives, and the interval.
    static QString recoveryPath();
    void setAutosaveIntervalMs(int ms) { autosaveTimer_.setInterval(ms); }
    bool writeRecoveryFile();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildViews();
    void buildActions();
    void buildDocks();
    void showCompileProblems(const std::shared_ptr<const CompiledWorld>& compiled);
    void updateTitle();
    void showError(const QString& title, const QString& message);
    bool maybeSave();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void offerRecovery();
    // The file of the level being edited (a .shallot, or the .map it was imported from);
    // empty when untitled.
    QString levelFile() const;
    int lastViewDepthAxis() const;
    // Another level opened: the reach start and the inspected point were in the old one.
    void forgetPlaces();
    // The overlays show the pose Preferences names, when the level has it, as it opens.
    void showDefaultPose();

    // Edit operations on the selection.
    void deleteSelection();
    void duplicateSelection();
    void subtractSelection();
    void hollowSelection();
    void rotateSelection(bool clockwise);
    void flipSelection(bool vertical);

    bool interactive_;
    Editor* editor_;
    Viewport3D* view3d_ = nullptr;
    Viewport2D* views2d_[3] = {};
    Viewport2D* lastView2d_ = nullptr;
    PoseDock* poseDock_ = nullptr;
    ProblemsDock* problemsDock_ = nullptr;
    RayDock* rayDock_ = nullptr;
    LeafInspector* leafInspector_ = nullptr;
    EntityDock* entityDock_ = nullptr;
    FileWatch* fileWatch_ = nullptr;
    QLabel* cursorLabel_ = nullptr;
    QLabel* compileLabel_ = nullptr;
    QLabel* checksLabel_ = nullptr;
    QLabel* pvsLabel_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QActionGroup* toolGroup_ = nullptr;
    QTimer autosaveTimer_;
    QString lastError_;
    QString sourcePath_; // the file last opened (a .map or mesh too), for the title and Save As
};

} // namespace shallot
