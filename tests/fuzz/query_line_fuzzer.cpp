// libFuzzer target: the query line parser of `shallot-cli query` (app/cli/query_processor.h)
// on a small compiled world. The input is split into lines as the command reads them; odd
// lines go to a processor that has the world (arbitrary box traces), even ones to one that
// has only the tree.
#include "fuzz_support.h"

#include "query_processor.h"

#include "compile/compiler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <memory>

using namespace shallot;

namespace {

struct Fixture {
    World world;
    BspTree tree;
    std::unique_ptr<cli::QueryProcessor> withWorld, treeOnly;
};

// Two rooms, a pillar and a ramp (a slanted plane), with Quake-like poses.
Fixture* makeFixture() {
    auto* f = new Fixture;
    World& w = f->world;
    w.brushes.push_back(Brush::box(Vec3(-256, -128, -16), Vec3(256, 128, 0)));   // floor
    w.brushes.push_back(Brush::box(Vec3(-256, -128, 128), Vec3(256, 128, 144))); // ceiling
    w.brushes.push_back(Brush::box(Vec3(-16, -128, 0), Vec3(16, -32, 128)));     // wall with a door
    w.brushes.push_back(Brush::box(Vec3(-16, 32, 0), Vec3(16, 128, 128)));
    w.brushes.push_back(Brush::box(Vec3(-16, -32, 64), Vec3(16, 32, 128)));      // lintel
    w.brushes.push_back(Brush::box(Vec3(96, -16, 0), Vec3(128, 16, 128)));       // pillar
    const Vec3 n = Vec3(-1, 0, 2).normalized();                                  // ramp
    w.brushes.push_back(Brush::fromPlanes({{n, n.dot(Vec3(-200, 0, 24))},
                                           {Vec3(0, 0, -1), 0},
                                           {Vec3(1, 0, 0), -100},
                                           {Vec3(-1, 0, 0), 240},
                                           {Vec3(0, 1, 0), 64},
                                           {Vec3(0, -1, 0), 64}}));
    Brush clip = Brush::box(Vec3(160, -64, 0), Vec3(176, 64, 128));
    clip.contents = BrushContents::Clip;
    w.brushes.push_back(clip);
    w.poses = {{"point", Vec3::Zero(), Vec3::Zero()},
               {"stand", Vec3(-16, -16, -24), Vec3(16, 16, 32)},
               {"crouch", Vec3(-16, -16, -24), Vec3(16, 16, 8)}};
    CompileResult r = compileWorld(w);
    if (!r.error.empty() || !r.problems.empty()) {
        std::fprintf(stderr, "query fuzzer: the fixture world does not compile: %s\n", r.error.c_str());
        std::abort();
    }
    f->tree = std::move(r.onion);
    f->withWorld = std::make_unique<cli::QueryProcessor>(f->tree, &f->world);
    f->treeOnly = std::make_unique<cli::QueryProcessor>(f->tree);
    return f;
}

const Fixture& fixture() {
    static const Fixture* f = makeFixture();
    return *f;
}

void checkFinite(const QJsonValue& v, const QByteArray& line) {
    if (v.isDouble()) SHALLOT_FUZZ_CHECK(std::isfinite(v.toDouble()), "non-finite number in the answer to " + line.toStdString());
    if (v.isArray())
        for (const QJsonValue& e : v.toArray()) checkFinite(e, line);
    if (v.isObject())
        for (const QJsonValue& e : v.toObject()) checkFinite(e, line);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    (void)fixture();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const Fixture& f = fixture();
    const QByteArray input = QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size));
    qsizetype start = 0;
    for (int index = 0; start <= input.size(); ++index) {
        qsizetype end = input.indexOf('\n', start);
        if (end < 0) end = input.size();
        const QByteArray line = input.mid(start, end - start);
        start = end + 1;
        if (line.trimmed().isEmpty()) continue;
        bool ok = true;
        const QJsonObject answer = (index % 2 ? f.withWorld : f.treeOnly)->answer(line, ok);
        SHALLOT_FUZZ_CHECK(ok == !answer.contains("error"), "ok disagrees with the answer for " + line.toStdString());
        if (!ok) SHALLOT_FUZZ_CHECK(answer.value("error").isString() && !answer.value("error").toString().isEmpty(),
                                    "an error answer without a message");
        checkFinite(answer, line);
        (void)QJsonDocument(answer).toJson(QJsonDocument::Compact);
    }
    return 0;
}
