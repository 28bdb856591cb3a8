// What the views paint with QPainter reaches the frame as painted (render/painted_overlay.h):
// over a sequence of frames whose painting changes, stays or comes back (the two textures
// take turns and upload only changed tiles), each frame read back from the framebuffer
// equals the background with the painted image drawn over it by Qt's raster engine, to
// within kBlendRounding per channel; a frame with nothing painted blends no tile.
#include "painted_overlay.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions_3_3_Core>
#include <QPainter>
#include <QtTest>
#include <random>

using namespace shallot::render;

namespace {

// GL blends premultiplied 8-bit colours with its own rounding; Qt's raster engine with its.
constexpr int kBlendRounding = 2;

// One frame's painting, reproducible from its seed: lines, text and translucent boxes
// in random places (seed 0: nothing).
void paintFrame(QPainter& painter, const QSize& size, unsigned seed) {
    if (seed == 0) return;
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> x(-20, size.width() + 20), y(-20, size.height() + 20), c(0, 255);
    const int shapes = 1 + int(random() % 6);
    for (int i = 0; i < shapes; ++i) {
        const QColor colour(c(random), c(random), c(random), c(random));
        switch (random() % 3) {
        case 0: painter.fillRect(QRect(QPoint(x(random), y(random)), QSize(1 + int(random() % 90), 1 + int(random() % 60))), colour); break;
        case 1:
            painter.setPen(QPen(colour, 1, Qt::DashLine));
            painter.drawLine(QPointF(x(random), y(random)), QPointF(x(random), y(random)));
            break;
        default:
            painter.setPen(colour);
            painter.drawText(QPointF(x(random), y(random)), QString("legend %1").arg(random() % 1000));
        }
    }
}

int largestDifference(const QImage& a, const QImage& b) {
    int worst = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            worst = std::max({worst, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
        }
    return worst;
}

} // namespace

class PaintedOverlayGuiTest : public QObject {
    Q_OBJECT
private slots:
    void framesShowWhatWasPainted() {
        QSurfaceFormat format;
        format.setVersion(3, 3);
        format.setProfile(QSurfaceFormat::CoreProfile);
        QOpenGLContext context;
        context.setFormat(format);
        QVERIFY(context.create());
        QOffscreenSurface surface;
        surface.setFormat(context.format());
        surface.create();
        QVERIFY(context.makeCurrent(&surface));
        QOpenGLFunctions_3_3_Core gl;
        QVERIFY(gl.initializeOpenGLFunctions());
        const QSize size(333, 201); // not a multiple of the tile size
        QOpenGLFramebufferObject target(size);
        PaintedOverlay overlay;

        std::mt19937 random(7);
        std::vector<unsigned> seeds{0};
        for (int frame = 0; frame < 60; ++frame) {
            // A new painting, the last one again, or the one before it (which one of the two
            // textures holds is the point), or nothing.
            const int choice = int(random() % 5);
            const unsigned seed = choice == 0   ? 0u
                                  : choice == 1 ? seeds.back()
                                  : choice == 2 ? seeds[std::max<size_t>(seeds.size(), 2) - 2]
                                                : 1u + unsigned(random() % 100000);
            seeds.push_back(seed);
            const QColor background(int(random() % 256), int(random() % 256), int(random() % 256));
            target.bind();
            gl.glViewport(0, 0, size.width(), size.height());
            gl.glClearColor(background.redF(), background.greenF(), background.blueF(), 1);
            gl.glClear(GL_COLOR_BUFFER_BIT);
            {
                QPainter painter(&overlay.begin(size, 1.0));
                paintFrame(painter, size, seed);
            }
            overlay.draw(gl);
            const QImage shown = target.toImage().convertToFormat(QImage::Format_RGB32);

            QImage expected(size, QImage::Format_RGB32);
            expected.fill(background);
            QImage painted(size, QImage::Format_ARGB32_Premultiplied);
            painted.fill(Qt::transparent);
            {
                QPainter painter(&painted);
                paintFrame(painter, size, seed);
            }
            QPainter(&expected).drawImage(0, 0, painted);
            const int difference = largestDifference(shown, expected);
            if (difference > kBlendRounding) {
                shown.save(QDir::temp().filePath("painted_overlay_shown.png"));
                expected.save(QDir::temp().filePath("painted_overlay_expected.png"));
            }
            QVERIFY2(difference <= kBlendRounding, qPrintable(QString("frame %1 (seed %2): a channel off by %3").arg(frame).arg(seed).arg(difference)));
            if (seed == 0) QCOMPARE(overlay.tilesDrawn(), 0);
        }
        overlay.release(gl);
        context.doneCurrent();
    }
};

QTEST_MAIN(PaintedOverlayGuiTest)
#include "painted_overlay_gui_test.moc"
