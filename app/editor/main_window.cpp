#include "main_window.h"

#include "document/document_files.h"
#include "edit/brush_operations.h"
#include "document/edit_commands.h"
#include "game_menus.h"
#include "overlay_menus.h"
#include "help_page.h"
#include "io/game_profile.h"
#include "docks/entity_dock.h"
#include "docks/movers_dock.h"
#include "services/mover_states.h"
#include "document/entity_edits.h"
#include "services/spawn_check_service.h"
#include "services/view_state.h"
#include "document/file_watch.h"
#include "document/recovery_file.h"
#include "document/save_location.h"
#include "io/fgd_reader.h"
#include "docks/leaf_inspector.h"
#include "services/overlay_controller.h"
#include "docks/pose_dock.h"
#include "preferences_dialog.h"
#include "docks/ray_dock.h"
#include "docks/problems_dock.h"
#include "tools/clip_tool.h"
#include "views/compile_status_label.h"
#include "views/pvs_status_label.h"
#include "views/viewport_2d.h"
#include "views/viewport_3d.h"
#include "wrapped_tooltips.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoView>
#include <iostream>
#include <numeric>

namespace shallot {

namespace {

constexpr int kMaxRecentFiles = 10;
constexpr int kAutosaveIntervalMs = 3 * 60 * 1000;
constexpr double kHollowWallUnits = 8.0;
// Pixels the status bar keeps between a message and its permanent labels (their margins).
constexpr int kStatusMessageMargin = 40;
// Room around a small box the views frame: an entity framed alone would fill the view.
constexpr double kFrameMargin = 256.0;

const char* kOpenFilter = "Levels (*.shallot *.map);;Shallot documents (*.shallot);;Quake maps (*.map);;All files (*)";

} // namespace

MainWindow::MainWindow(bool interactive, QWidget* parent)
    : QMainWindow(parent), interactive_(interactive), editor_(new Editor(this)) {
    setWindowTitle("Shallot");
    buildViews();
    buildActions();
    buildDocks();
    cursorLabel_ = new QLabel(this);
    compileLabel_ = new CompileStatusLabel(*editor_, this);
    checksLabel_ = new SpawnChecksStatusLabel(*editor_, this);
    pvsLabel_ = new PvsStatusLabel(*editor_, this);
    statusBar()->addPermanentWidget(checksLabel_);
    statusBar()->addPermanentWidget(pvsLabel_);
    statusBar()->addPermanentWidget(compileLabel_);
    statusBar()->addPermanentWidget(cursorLabel_);
    connect(&editor_->compiler(), &CompileService::compiled, this, &MainWindow::showCompileProblems);
    connect(editor_, &Editor::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    // A message that would be cut off beside the compile and check figures hides them while it shows.
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString& m) {
        const int beside = compileLabel_->sizeHint().width() + checksLabel_->sizeHint().width() + pvsLabel_->sizeHint().width();
        const int room = statusBar()->width() - cursorLabel_->sizeHint().width() - kStatusMessageMargin;
        const bool fits = m.isEmpty() || statusBar()->fontMetrics().horizontalAdvance(m) + beside <= room;
        compileLabel_->setVisible(fits);
        checksLabel_->setVisible(fits);
        pvsLabel_->setVisible(fits);
    });
    EditorDocument& doc = editor_->document();
    connect(doc.undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(&doc, &EditorDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(&doc, &EditorDocument::gameChanged, this, &MainWindow::updateTitle);
    connect(&doc, &EditorDocument::gridSizeChanged, this, [](int size) { QSettings().setValue("grid/size", size); });

    // Screenshots and tests always use the default layout, so they are reproducible.
    if (interactive_) {
        QSettings settings;
        restoreGeometry(settings.value("window/geometry").toByteArray());
        restoreState(settings.value("window/state").toByteArray());
    }
    autosaveTimer_.setInterval(kAutosaveIntervalMs);
    connect(&autosaveTimer_, &QTimer::timeout, this, [this] {
        if (editor_->document().isModified()) writeRecoveryFile();
    });
    autosaveTimer_.start();
    fileWatch_ = new FileWatch(this);
    connect(fileWatch_, &FileWatch::changedOnDisk, this, &MainWindow::reloadChangedFile);
    newDocument();
    wrapLongTooltips(this);
    if (interactive_) QTimer::singleShot(0, this, &MainWindow::offerRecovery);
}

// The document (owned by editor_, a child destroyed after this body) clears its undo stack
// on the way out, which emits cleanChanged: disconnect so it cannot reach a half-destroyed
// window (ASan: use of a destroyed QMainWindow in updateTitle). Likewise QWidget's destructor
// hides the window, which moves the focus and emits the application's focusChanged (UBSan:
// member access within a QWidget that is no longer a MainWindow).
MainWindow::~MainWindow() {
    disconnect(editor_->document().undoStack(), nullptr, this, nullptr);
    disconnect(qApp, nullptr, this, nullptr);
}

void MainWindow::buildViews() {
    view3d_ = new Viewport3D(*editor_);
    for (int i = 0; i < 3; ++i) {
        views2d_[i] = new Viewport2D(*editor_, ViewAxis(i));
        connect(views2d_[i], &Viewport::cursorMoved, this, [this](const QString& t) { cursorLabel_->setText(t); });
        views2d_[i]->installEventFilter(this);
    }
    lastView2d_ = views2d_[0];
    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(view3d_);
    top->addWidget(views2d_[0]);
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(views2d_[1]);
    bottom->addWidget(views2d_[2]);
    auto* rows = new QSplitter(Qt::Vertical);
    rows->addWidget(top);
    rows->addWidget(bottom);
    setCentralWidget(rows);
    for (int i = 0; i < 3; ++i)
        connect(qApp, &QApplication::focusChanged, this, [this, i](QWidget*, QWidget* now) {
            if (now == views2d_[i]) lastView2d_ = views2d_[i];
        });
}

QAction* MainWindow::action(const QString& objectName) const { return findChild<QAction*>(objectName); }

void MainWindow::buildActions() {
    EditorDocument& doc = editor_->document();
    auto make = [this](QMenu* menu, const QString& name, const QString& text, const QKeySequence& key, auto slot) {
        QAction* a = menu->addAction(text);
        a->setObjectName(name);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    QMenu* file = menuBar()->addMenu("&File");
    make(file, "new", "&New", QKeySequence::New, [this] {
        if (maybeSave()) newDocument();
    });
    make(file, "open", "&Open...", QKeySequence::Open, [this] {
        if (!maybeSave()) return;
        const QString path = QFileDialog::getOpenFileName(this, "Open level", QString(), kOpenFilter);
        if (!path.isEmpty()) openFile(path);
    });
    recentMenu_ = file->addMenu("Open &Recent");
    rebuildRecentMenu();
    make(file, "save", "&Save", QKeySequence::Save, [this] {
        const QString path = editor_->document().filePath();
        // An installed or read-only document is saved elsewhere (Save As).
        if (path.endsWith(".shallot") && !isReadOnlyLocation(path, protectedDirs())) saveTo(path);
        else action("saveAs")->trigger();
    });
    make(file, "saveAs", "Save &As...", QKeySequence::SaveAs, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Save level", proposedSavePath(".shallot"), "Shallot documents (*.shallot)");
        if (!path.isEmpty()) saveTo(path.endsWith(".shallot") ? path : path + ".shallot");
    });
    file->addSeparator();
    make(file, "importMap", "&Import .map...", QKeySequence(), [this] {
        if (!maybeSave()) return;
        const QString path = QFileDialog::getOpenFileName(this, "Import Quake map", QString(), "Quake maps (*.map)");
        if (!path.isEmpty()) openFile(path);
    });
    make(file, "importMesh", "Import &Mesh...", QKeySequence(), [this] {
        if (!maybeSave()) return;
        const QString path = QFileDialog::getOpenFileName(this, "Import mesh as convex brushes", QString(),
                                                          "Meshes (*.obj *.gltf *.glb *.fbx *.ply *.stl *.dae *.3ds);;All files (*)");
        if (!path.isEmpty()) openFile(path);
    });
    make(file, "exportMap", "&Export .map...", QKeySequence(), [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Export Quake map", proposedSavePath(".map"), "Quake maps (*.map)");
        if (!path.isEmpty()) saveTo(path.endsWith(".map") ? path : path + ".map");
    });
    make(file, "loadFgd", "Load Entity &Definitions (.fgd)...", QKeySequence(), [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Load entity definitions", QString(), "Entity definitions (*.fgd);;All files (*)");
        if (!path.isEmpty()) loadEntityDefinitions(path);
    });
    file->addSeparator();
    make(file, "quit", "&Quit", QKeySequence::Quit, [this] { close(); });

    QMenu* edit = menuBar()->addMenu("&Edit");
    QAction* undo = doc.undoStack()->createUndoAction(this);
    undo->setObjectName("undo");
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = doc.undoStack()->createRedoAction(this);
    redo->setObjectName("redo");
    redo->setShortcuts({QKeySequence::Redo, QKeySequence("Ctrl+Y")});
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    make(edit, "delete", "&Delete", QKeySequence::Delete, [this] { deleteSelection(); });
    make(edit, "duplicate", "D&uplicate", QKeySequence("Ctrl+D"), [this] { duplicateSelection(); });
    make(edit, "selectAll", "Select &All", QKeySequence::SelectAll, [this] {
        std::vector<int> all(editor_->document().brushes().size());
        std::iota(all.begin(), all.end(), 0);
        editor_->document().setSelection(all);
    });
    make(edit, "selectNone", "Select &None", QKeySequence("Ctrl+Shift+A"), [this] {
        editor_->document().setSelection({});
        editor_->document().setEntitySelection({});
    });
    edit->addSeparator();
    make(edit, "subtract", "CSG &Subtract", QKeySequence("Ctrl+K"), [this] { subtractSelection(); });
    make(edit, "hollow", "&Hollow", QKeySequence("Ctrl+Shift+H"), [this] { hollowSelection(); });
    make(edit, "rotateCw", "Rotate 90° Clockwise", QKeySequence("Ctrl+R"), [this] { rotateSelection(true); });
    make(edit, "rotateCcw", "Rotate 90° Counter-clockwise", QKeySequence("Ctrl+Shift+R"), [this] { rotateSelection(false); });
    make(edit, "flipH", "Flip Horizontally", QKeySequence("Ctrl+F"), [this] { flipSelection(false); });
    make(edit, "flipV", "Flip Vertically", QKeySequence("Ctrl+Shift+F"), [this] { flipSelection(true); });
    edit->addSeparator();
    addGameMenus(edit, *editor_);
    edit->addSeparator();
    make(edit, "preferences", "&Preferences...", QKeySequence::Preferences, [this] { PreferencesDialog(*this).exec(); });
    make(edit, "applyClip", "Apply Clip", QKeySequence(), [this] {
        if (editor_->activeTool() == ToolKind::Clip) static_cast<ClipTool&>(editor_->tool()).apply();
    });

    QMenu* view = menuBar()->addMenu("&View");
    make(view, "gridSmaller", "Smaller Grid", QKeySequence("["), [this] {
        editor_->document().setGridSize(editor_->document().data().gridSize / 2);
    });
    make(view, "gridBigger", "Bigger Grid", QKeySequence("]"), [this] {
        editor_->document().setGridSize(editor_->document().data().gridSize * 2);
    });
    make(view, "frameAll", "Frame All", QKeySequence("Ctrl+Shift+0"), [this] { frameAll(); });
    QAction* single = make(view, "maximize3d", "Maximize 3D View", QKeySequence("Ctrl+Shift+M"), [] {});
    single->setCheckable(true);
    connect(single, &QAction::toggled, this, &MainWindow::setSingleView);
    addOverlayControls(view, addToolBar("Overlays"), *editor_);
    view->addSeparator();
    make(view, "focusSelection", "Focus Selection", QKeySequence("Ctrl+Shift+F9"), [this] {
        const Aabb sel = editor_->selectionBoundsWithEntities();
        view3d_->focus(sel);
        for (Viewport2D* v : views2d_) v->frame(sel);
    });
    make(view, "goToPlayerStart", "Go to &Player Start", QKeySequence("Ctrl+Shift+P"), [this] {
        if (!goToPlayerStart(true)) statusBar()->showMessage("This level has no player start", 4000);
    });
    addEntityMenu(view, *editor_);
    connect(editor_, &Editor::frameRequested, this, [this](const Aabb& box) {
        if (box.empty()) return;
        const Aabb wide{box.mins - Vec3::Constant(kFrameMargin), box.maxs + Vec3::Constant(kFrameMargin)};
        for (Viewport2D* v : views2d_) v->frame(wide);
        view3d_->focus(box);
    });

    QMenu* tools = menuBar()->addMenu("&Tools");
    QToolBar* toolbar = addToolBar("Tools");
    toolbar->setObjectName("ToolsToolbar");
    toolGroup_ = new QActionGroup(this);
    const std::pair<ToolKind, std::pair<const char*, const char*>> toolDefs[] = {
        {ToolKind::Select, {"Select", "V"}}, {ToolKind::DrawBox, {"Box", "B"}},
        {ToolKind::Clip, {"Clip", "C"}},     {ToolKind::Ray, {"Ray", "R"}},
        {ToolKind::Inspect, {"Inspect", "I"}}, {ToolKind::Pose, {"Pose", "P"}},
        {ToolKind::Entity, {"Entity", "N"}}, {ToolKind::Path, {"Path", "G"}}};
    for (const auto& [kind, def] : toolDefs) {
        QAction* a = tools->addAction(def.first);
        a->setObjectName(QString("tool") + def.first);
        a->setShortcut(QKeySequence(def.second));
        a->setCheckable(true);
        a->setChecked(kind == ToolKind::Select);
        a->setToolTip(helpTooltip(def.first));
        toolGroup_->addAction(a);
        toolbar->addAction(a);
        const ToolKind k = kind;
        connect(a, &QAction::triggered, this, [this, k] { editor_->setActiveTool(k); });
    }
    QMenu* help = menuBar()->addMenu("&Help");
    make(help, "keysAndOverlays", "&Keys and Overlays", QKeySequence::HelpContents, [this] { showKeysAndOverlays(this); });
    make(help, "about", "&About Shallot", QKeySequence(), [this] {
        QMessageBox::about(this, "About Shallot",
                           "Shallot: a level editor for convex brushes that shows, while you draw, where each kind of "
                           "agent can and cannot go (onion BSP trees, compiled on every edit).");
    });
    // Key bindings the user changed are kept in the settings, by action name.
    QSettings settings;
    for (QAction* a : findChildren<QAction*>()) {
        const QVariant key = settings.value("shortcuts/" + a->objectName());
        if (!a->objectName().isEmpty() && key.isValid()) a->setShortcut(QKeySequence(key.toString()));
    }
}

void MainWindow::buildDocks() {
    poseDock_ = new PoseDock(*editor_, this);
    addDockWidget(Qt::RightDockWidgetArea, poseDock_);
    problemsDock_ = new ProblemsDock(*editor_, this);
    addDockWidget(Qt::BottomDockWidgetArea, problemsDock_);
    auto* history = new QDockWidget("History", this);
    history->setObjectName("HistoryDock");
    history->setWidget(new QUndoView(editor_->document().undoStack(), history));
    addDockWidget(Qt::RightDockWidgetArea, history);
    rayDock_ = new RayDock(*editor_, this);
    addDockWidget(Qt::BottomDockWidgetArea, rayDock_);
    leafInspector_ = new LeafInspector(*editor_, this);
    addDockWidget(Qt::RightDockWidgetArea, leafInspector_);
    entityDock_ = new EntityDock(*editor_, this);
    addDockWidget(Qt::RightDockWidgetArea, entityDock_);
    tabifyDockWidget(poseDock_, entityDock_);
    poseDock_->raise();
    tabifyDockWidget(problemsDock_, rayDock_);
    tabifyDockWidget(history, leafInspector_);
    auto* movers = new MoversDock(*editor_, this);
    addDockWidget(Qt::RightDockWidgetArea, movers);
    tabifyDockWidget(leafInspector_, movers);
    leafInspector_->raise();
    resizeDocks({rayDock_}, {170}, Qt::Vertical);
    resizeDocks({poseDock_}, {330}, Qt::Horizontal);
    connect(editor_, &Editor::inspectRequested, leafInspector_, &LeafInspector::inspect);
    connect(rayDock_, &RayDock::inspectPoint, leafInspector_, &LeafInspector::inspect);
    QMenu* docks = menuBar()->addMenu("&Window");
    for (QDockWidget* d : std::initializer_list<QDockWidget*>{poseDock_, entityDock_, problemsDock_, rayDock_, leafInspector_, history, movers})
        docks->addAction(d->toggleViewAction());
}

void MainWindow::showCompileProblems(const std::shared_ptr<const CompiledWorld>& compiled) {
    std::vector<std::pair<int, QString>> problems;
    for (const BrushProblem& p : compiled->result->problems) problems.emplace_back(p.brush, QString::fromStdString(p.message));
    problemsDock_->setCompileProblems(problems);
}

void MainWindow::updateTitle() {
    const QString path = editor_->document().filePath();
    // An imported .map or mesh has no document file yet: its name, marked as imported.
    const QString name = !path.isEmpty()          ? QFileInfo(path).fileName()
                         : !sourcePath_.isEmpty() ? QString("%1 (imported)").arg(QFileInfo(sourcePath_).fileName())
                                                  : QString("untitled");
    setWindowTitle(QString("%1[*] - %2 - Shallot").arg(name, gameTitle(editor_->document().data().game)));
    setWindowModified(editor_->document().isModified());
}

void MainWindow::showError(const QString& title, const QString& message) {
    lastError_ = message;
    std::cerr << qPrintable(title) << ": " << qPrintable(message) << "\n";
    if (interactive_) QMessageBox::critical(this, title, message);
}

void MainWindow::newDocument() {
    DocumentData data;
    data.world.poses = quakePoses();
    data.gridSize = QSettings().value("grid/size", data.gridSize).toInt();
    editor_->document().reset(std::move(data), QString());
    forgetPlaces();
    showDefaultPose();
    problemsDock_->setImportWarnings({});
    sourcePath_.clear();
    fileWatch_->follow(QString());
    updateTitle();
}

bool MainWindow::openFile(const QString& path) {
    QString error;
    std::optional<LoadedDocument> loaded = loadDocumentFile(path, error);
    if (!loaded) {
        showError("Open failed", error);
        return false;
    }
    const bool native = path.endsWith(".shallot", Qt::CaseInsensitive);
    // A stored tree compiled from exactly this world is shown without recompiling.
    std::optional<BspTree> tree = std::move(loaded->tree);
    sourcePath_ = path;
    // A .map may be edited by another program meanwhile (TrenchBroom): follow it.
    fileWatch_->follow(path.endsWith(".map", Qt::CaseInsensitive) ? path : QString());
    editor_->document().reset(std::move(loaded->data), native ? path : QString(), tree.has_value());
    forgetPlaces();
    if (tree) editor_->compiler().adopt(editor_->document().data().world, editor_->document().worldRevision(), std::move(*tree));
    showViewState(*editor_, editor_->document().data().view, defaultPoseName());
    problemsDock_->setImportWarnings(loaded->warnings);
    addRecentFile(path);
    updateTitle();
    QTimer::singleShot(0, this, [this] {
        frameAll();
        goToPlayerStart(false); // the 3D view starts where the player does, when there is one
    });
    return true;
}

void MainWindow::reloadChangedFile(const QString& path) {
    const QString name = QFileInfo(path).fileName();
    EditorDocument& doc = editor_->document();
    if (doc.isModified()) {
        const QString question = QString("%1 changed on disk. Reload it and lose the edits made here?").arg(name);
        if (!interactive_) {
            statusBar()->showMessage(QString("%1 changed on disk; not reloaded over the edits made here").arg(name), 8000);
            return;
        }
        if (QMessageBox::question(this, "File changed on disk", question, QMessageBox::Yes | QMessageBox::No) != QMessageBox::Yes) return;
    }
    QString error;
    std::optional<LoadedDocument> loaded = loadDocumentFile(path, error);
    if (!loaded) { // half written, or broken: the document stays as it is
        statusBar()->showMessage(QString("%1 changed on disk but cannot be read: %2").arg(name, error), 8000);
        return;
    }
    // What Shallot adds to the level stays: the camera, the poses, the test rays, the grid
    // and the entity definitions. The compile that follows updates only what the other
    // editor changed (the incremental compiler diffs the brushes).
    const DocumentData& before = doc.data();
    loaded->data.camera = before.camera;
    loaded->data.workingPoint = before.workingPoint;
    loaded->data.world.poses = before.world.poses;
    loaded->data.rays = before.rays;
    loaded->data.gridSize = before.gridSize;
    loaded->data.entityDefinitionsPath = before.entityDefinitionsPath;
    loaded->data.entityDefinitions = before.entityDefinitions;
    doc.reset(std::move(loaded->data), doc.filePath());
    problemsDock_->setImportWarnings(loaded->warnings);
    statusBar()->showMessage(QString("Reloaded %1: it changed on disk").arg(name), 5000);
}

bool MainWindow::loadEntityDefinitions(const QString& path) {
    QFile file(path);
    constexpr qint64 kMaxDefinitionBytes = 64 << 20; // far above any game's .fgd
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxDefinitionBytes) {
        showError("Load entity definitions failed", QString("%1: %2").arg(path, file.size() > kMaxDefinitionBytes ? "larger than 64 MB" : file.errorString()));
        return false;
    }
    const std::string text = file.readAll().toStdString();
    try {
        const FgdFile fgd = readFgd(text, path.toStdString());
        statusBar()->showMessage(QString("%1: %2 classes, %3 warnings").arg(QFileInfo(path).fileName()).arg(fgd.classes.classes().size()).arg(fgd.warnings.size()), 6000);
        QStringList warnings;
        for (const MapWarning& w : fgd.warnings) warnings << QString::fromStdString(w.message);
        if (!warnings.isEmpty()) problemsDock_->setImportWarnings(warnings);
    } catch (const std::exception& e) {
        showError("Load entity definitions failed", e.what());
        return false;
    }
    EditorDocument& doc = editor_->document();
    doc.undoStack()->push(new SetEntityDefinitionsCommand(&doc, path, text));
    return true;
}

void MainWindow::forgetPlaces() {
    editor_->overlays().forgetPlaces();
    leafInspector_->clear();
}

void MainWindow::showDefaultPose() {
    const std::string name = defaultPoseName().toStdString();
    if (name.empty()) return; // the pose shown stays as it was
    const auto& poses = editor_->document().poses();
    const auto it = std::find_if(poses.begin(), poses.end(), [&](const Pose& p) { return p.name == name; });
    if (it != poses.end()) editor_->setCurrentPose(int(it - poses.begin()));
}

QString MainWindow::proposedSavePath(const QString& extension) const {
    return shallot::proposedSavePath(!editor_->document().filePath().isEmpty() ? editor_->document().filePath() : sourcePath_, extension);
}

bool MainWindow::goToPlayerStart(bool frame2d) {
    const auto& entities = editor_->document().entities();
    std::optional<size_t> start;
    for (size_t i = 0; i < entities.size(); ++i) {
        if (editor_->entityCategory(int(i)) != EntityCategory::PlayerStart || !entities[i].origin()) continue;
        if (!start || entities[i].classname() == "info_player_start") start = i; // the single player start first
        if (entities[i].classname() == "info_player_start") break;
    }
    if (!start) return false;
    const MapEntity& e = entities[*start];
    // The eye is kQuakeEyeHeight above the origin; "angle" is the yaw in degrees.
    CameraState camera = editor_->document().data().camera;
    camera.position = *e.origin() + Vec3(0, 0, kQuakeEyeHeight);
    camera.pitchDegrees = 0;
    camera.yawDegrees = 0;
    if (const std::string* angle = e.value("angle")) {
        try {
            camera.yawDegrees = std::stod(*angle);
        } catch (const std::exception&) {} // a bad angle: look along +x, as Quake does
    }
    editor_->document().setCamera(camera);
    view3d_->redraw();
    if (frame2d) {
        const Aabb box = editor_->entityBox(int(*start));
        for (Viewport2D* v : views2d_) v->frame({box.mins - Vec3::Constant(kFrameMargin), box.maxs + Vec3::Constant(kFrameMargin)});
    }
    return true;
}

bool MainWindow::saveTo(const QString& path) {
    const QImage thumbnail = view3d_->grabFramebuffer().scaled(256, 160, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    // The newest tree goes into the file when it was compiled from the current world (without the movers).
    const auto& compiled = editor_->moverStates().staticWorld();
    const BspTree* tree = compiled && compiled->revision == editor_->document().worldRevision() ? &compiled->result->onion : nullptr;
    editor_->document().setViewState(currentViewState(*editor_));
    const QString error = saveDocumentFile(editor_->document().data(), path, tree, thumbnail);
    if (!error.isEmpty()) {
        showError("Save failed", error);
        return false;
    }
    fileWatch_->noteOwnWrite(path); // exporting over the followed .map is no outside change
    if (path.endsWith(".shallot", Qt::CaseInsensitive)) {
        editor_->document().setFilePath(path);
        editor_->document().markSaved();
        RecoveryFile::remove();
    }
    addRecentFile(path);
    statusBar()->showMessage("Saved " + path, 4000);
    return true;
}

void MainWindow::setSingleView(bool on) {
    for (Viewport2D* v : views2d_) v->setVisible(!on);
    views2d_[1]->parentWidget()->setVisible(!on); // the bottom row of views
}

void MainWindow::frameAll() {
    Aabb box = editor_->levelBounds();
    if (box.empty()) box = {Vec3::Constant(-256), Vec3::Constant(256)};
    for (Viewport2D* v : views2d_) v->frame(box);
    view3d_->focus(box);
}

bool MainWindow::maybeSave() {
    if (!editor_->document().isModified() || !interactive_) return true;
    const auto answer = QMessageBox::question(this, "Unsaved changes", "Save the changes to this level first?",
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) {
        action("save")->trigger();
        return !editor_->document().isModified();
    }
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    RecoveryFile::remove();
    event->accept();
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("recentFiles").toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecentFiles) recent.removeLast();
    settings.setValue("recentFiles", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    for (const QString& path : QSettings().value("recentFiles").toStringList())
        recentMenu_->addAction(path, this, [this, path] {
            if (maybeSave()) openFile(path);
        });
    recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

QString MainWindow::recoveryPath() { return RecoveryFile::path(); }

QString MainWindow::levelFile() const {
    return !editor_->document().filePath().isEmpty() ? editor_->document().filePath() : sourcePath_;
}

bool MainWindow::writeRecoveryFile() {
    editor_->document().setViewState(currentViewState(*editor_));
    if (!saveDocumentFile(editor_->document().data(), recoveryPath(), nullptr, QImage()).isEmpty()) return false;
    RecoveryFile::noteLevel(levelFile());
    return true;
}

void MainWindow::offerRecovery() {
    if (!QFile::exists(recoveryPath())) return;
    const QString text = recoveryOfferText(RecoveryFile::level(), QFileInfo(recoveryPath()).lastModified(),
                                           QDateTime::currentDateTime(), levelFile());
    const auto answer = QMessageBox::question(this, "Recover work", text, QMessageBox::Yes | QMessageBox::No);
    if (answer == QMessageBox::Yes && openFile(recoveryPath())) {
        editor_->document().setFilePath(QString()); // recovered work is saved under a new name
        editor_->document().markUnsaved(); // else closing would drop it without a word
        sourcePath_.clear();
        updateTitle();
    }
    else RecoveryFile::remove();
}

int MainWindow::lastViewDepthAxis() const {
    switch (lastView2d_->axis()) {
    case ViewAxis::Top: return 2;
    case ViewAxis::Front: return 1;
    case ViewAxis::Side: return 0;
    }
    return 2;
}

void MainWindow::deleteSelection() {
    EditorDocument& doc = editor_->document();
    if (QUndoCommand* command = deleteSelectionCommand(doc)) doc.undoStack()->push(command);
}

void MainWindow::duplicateSelection() {
    EditorDocument& doc = editor_->document();
    Vec3 offset = Vec3::Zero();
    offset[(lastViewDepthAxis() + 1) % 3] = doc.data().gridSize;
    if (QUndoCommand* command = duplicateSelectionCommand(doc, offset)) doc.undoStack()->push(command);
}

void MainWindow::subtractSelection() {
    // The selected brushes cut every other brush they overlap; the cutters stay.
    EditorDocument& doc = editor_->document();
    if (doc.selection().empty()) return;
    std::vector<int> removed;
    std::vector<Brush> pieces;
    const Aabb sel = editor_->selectionBounds();
    for (size_t i = 0; i < doc.brushes().size(); ++i) {
        const auto& g = editor_->geometry()[i];
        if (doc.isSelected(int(i)) || !g || !g->bounds.overlaps(sel)) continue;
        std::vector<Brush> parts{doc.brushes()[i]};
        for (int c : doc.selection()) {
            std::vector<Brush> next;
            for (const Brush& p : parts)
                for (Brush& q : subtractBrush(p, doc.brushes()[size_t(c)])) next.push_back(std::move(q));
            parts = std::move(next);
        }
        if (parts.size() == 1 && parts[0].sides.size() == doc.brushes()[i].sides.size()) continue; // untouched
        removed.push_back(int(i));
        for (Brush& p : parts) pieces.push_back(std::move(p));
    }
    if (removed.empty()) return;
    // Pieces go to the end; the cutters stay selected (their indices shift down).
    std::vector<std::pair<int, Brush>> inserted;
    const int base = int(doc.brushes().size() - removed.size());
    for (size_t k = 0; k < pieces.size(); ++k) inserted.emplace_back(base + int(k), pieces[k]);
    std::vector<int> select;
    for (int s : doc.selection())
        select.push_back(s - int(std::lower_bound(removed.begin(), removed.end(), s) - removed.begin()));
    doc.undoStack()->push(new ReplaceBrushesCommand(&doc, "CSG subtract", removed, inserted, select));
}

void MainWindow::hollowSelection() {
    EditorDocument& doc = editor_->document();
    if (doc.selection().empty()) return;
    std::vector<Brush> walls;
    for (int i : doc.selection()) {
        std::string reason;
        const std::vector<Brush> w = hollowBrush(doc.brushes()[size_t(i)], kHollowWallUnits, &reason);
        if (w.empty()) {
            statusBar()->showMessage(QString::fromStdString("Cannot hollow: " + reason), 5000);
            return;
        }
        walls.insert(walls.end(), w.begin(), w.end());
    }
    // The walls replace the hollowed brushes, at the end of the list.
    const int base = int(doc.brushes().size() - doc.selection().size());
    std::vector<std::pair<int, Brush>> inserted;
    std::vector<int> select;
    for (size_t k = 0; k < walls.size(); ++k) {
        inserted.emplace_back(base + int(k), walls[k]);
        select.push_back(base + int(k));
    }
    doc.undoStack()->push(new ReplaceBrushesCommand(&doc, "Hollow", doc.selection(), inserted, select));
}

void MainWindow::rotateSelection(bool clockwise) {
    EditorDocument& doc = editor_->document();
    if (doc.selection().empty()) return;
    const Aabb sel = editor_->selectionBounds();
    const Vec3 pivot = editor_->snap(0.5 * (sel.mins + sel.maxs));
    std::vector<Brush> rotated;
    for (int i : doc.selection()) rotated.push_back(rotated90(doc.brushes()[size_t(i)], lastViewDepthAxis(), pivot, clockwise));
    doc.undoStack()->push(replaceInPlace(&doc, "Rotate", doc.selection(), rotated));
}

void MainWindow::flipSelection(bool vertical) {
    EditorDocument& doc = editor_->document();
    if (doc.selection().empty()) return;
    const Aabb sel = editor_->selectionBounds();
    const Vec3 pivot = 0.5 * (sel.mins + sel.maxs);
    const int depth = lastViewDepthAxis();
    // Horizontal flips mirror the view's right axis, vertical ones its up axis.
    const int axis = depth == 2 ? (vertical ? 1 : 0) : (vertical ? 2 : (depth == 1 ? 0 : 1));
    std::vector<Brush> result;
    for (int i : doc.selection()) result.push_back(flipped(doc.brushes()[size_t(i)], axis, pivot));
    doc.undoStack()->push(replaceInPlace(&doc, "Flip", doc.selection(), result));
}

} // namespace shallot
