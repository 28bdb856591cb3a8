#include "viewport.h"

#include "editor.h"
#include "preferences_dialog.h"

namespace shallot {

Viewport::Viewport(Editor& editor, QWidget* parent) : QOpenGLWidget(parent), editor_(editor) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    connect(&editor_, &Editor::sceneChanged, this, qOverload<>(&QWidget::update));
}

Viewport::~Viewport() {
    makeCurrent();
    renderer_.release();
    doneCurrent();
}

void Viewport::initializeGL() {
    initializeOpenGLFunctions();
    renderer_.initialize(*this);
}

void Viewport::paintGL() {
    QElapsedTimer timer;
    timer.start();
    const QColor background = backgroundColour();
    glClearColor(background.redF(), background.greenF(), background.blueF(), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (is3d()) glEnable(GL_DEPTH_TEST);
    else glDisable(GL_DEPTH_TEST);
    paintBackground();
    if (!renderer_.draw(*this, editor_.scene(), viewProjection(), is3d(), eye())) update(); // more to upload
    paintOverlay();
    lastFrameMs_ = double(timer.nsecsElapsed()) / 1e6;
    ++frames_;
    emit painted();
}

} // namespace shallot
