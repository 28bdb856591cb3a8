// No two meanings share a colour (issue 37, item 6): every colour the views give a meaning
// to (render/palette.h: the overlays, the brushes' contents, problems, the selection, and
// core's entity categories) is at least kMinColourDistance from every other, and the
// distance is CIE76 as computed by hand for known pairs.
#include "palette.h"
#include "world/entity_class.h"

#include <QtTest>

using namespace shallot;
using namespace shallot::render;

class RenderPaletteTest : public QObject {
    Q_OBJECT

private slots:
    // Known L*a*b* distances: black to white is 100 (L* 0 to 100), a colour to itself 0,
    // and sRGB red to green about 170.6 (L*a*b* (53.24, 80.09, 67.20) and (87.73, -86.18, 83.18)).
    void distanceIsCie76() {
        QVERIFY(std::abs(colourDistance(Qt::black, Qt::white) - 100.0) < 1e-3);
        QCOMPARE(colourDistance(kProblemColour, kProblemColour), 0.0);
        QVERIFY(std::abs(colourDistance(QColor(255, 0, 0), QColor(0, 255, 0)) - 170.6) < 0.2);
        QCOMPARE(colourDistance(QColor(10, 200, 30), QColor(200, 30, 10)), colourDistance(QColor(200, 30, 10), QColor(10, 200, 30)));
    }

    void everyTwoMeaningsAreApart() {
        const std::vector<PaletteEntry> palette = paletteEntries();
        QVERIFY(palette.size() >= 30); // the meanings of palette.h and five entity categories
        QStringList tooClose;
        for (size_t i = 0; i < palette.size(); ++i)
            for (size_t j = i + 1; j < palette.size(); ++j) {
                const double d = colourDistance(palette[i].colour, palette[j].colour);
                if (d < kMinColourDistance)
                    tooClose << QString("%1 / %2: %3").arg(palette[i].meaning, palette[j].meaning).arg(d, 0, 'f', 1);
            }
        QVERIFY2(tooClose.isEmpty(), qPrintable(tooClose.join("; ")));
    }

    // The case: monsters and clip brushes were both orange.
    void monstersAndClipBrushesDiffer() {
        const QColor monster = colourOfRgba(categoryColour(EntityCategory::Monster));
        QVERIFY(colourDistance(monster, kPlayerClipBrushColour) >= kMinColourDistance);
        QVERIFY(colourDistance(monster, kMonsterClipBrushColour) >= kMinColourDistance);
    }

    // The entity categories of the palette are core's, as the views draw them.
    void entityCategoriesAreCores() {
        const std::vector<PaletteEntry> palette = paletteEntries();
        for (int c = 0; c < kEntityCategoryCount; ++c) {
            const QColor colour = colourOfRgba(categoryColour(EntityCategory(c)));
            QVERIFY(std::any_of(palette.begin(), palette.end(), [&](const PaletteEntry& e) {
                return e.colour == colour && e.meaning == categoryName(EntityCategory(c));
            }));
        }
    }
};

QTEST_GUILESS_MAIN(RenderPaletteTest)
#include "render_palette_test.moc"
