// NavMeshCache (app/editor/services/nav_mesh_cache.h), which the Walkable overlay and the
// walking spawn check share: a mesh is built once for all who ask, except that an asker for
// the screen does not wait for a builder working for the spawn checks (which run at the
// lowest priority): it builds its own, equal mesh, and askers after it wait for that one.
// (The cache is in the editor's library, hence a _gui_test; it opens no window.)
#include "services/nav_mesh_cache.h"

#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"

#include <QtTest>
#include <atomic>
#include <future>
#include <mutex>

using namespace shallot;

namespace {

constexpr int kPlayer = 1; // quakePoses(): point, player, large

std::shared_ptr<const CompiledWorld> compiledSample(const char* file) {
    const MapReadResult read = readMapFile(std::string(SHALLOT_SAMPLE_MAPS "/") + file);
    if (!read.ok()) qFatal("%s", read.error.format().c_str());
    auto compiled = std::make_shared<CompiledWorld>();
    compiled->revision = 1;
    compiled->world = worldFromMap(*read.map);
    compiled->result = std::make_shared<const CompileResult>(compileWorld(compiled->world));
    return compiled;
}

// Holds builders until opened. Declared after the futures of the threads it holds, it
// opens as a failing check returns, before those futures wait for their threads.
class Gate {
public:
    void open() {
        std::call_once(opened_, [&] { promise_.set_value(); });
    }
    std::shared_future<void> opened() const { return future_; }
    ~Gate() { open(); }

private:
    std::promise<void> promise_;
    std::shared_future<void> future_ = promise_.get_future().share();
    std::once_flag opened_;
};

using MeshFuture = std::future<std::shared_ptr<const NavMesh>>;

bool sameMesh(const NavMesh& a, const NavMesh& b) {
    if (a.polygons.size() != b.polygons.size() || a.links.size() != b.links.size()) return false;
    for (size_t i = 0; i < a.polygons.size(); ++i)
        if (a.polygons[i].vertices != b.polygons[i].vertices) return false;
    return true;
}

} // namespace

class NavMeshCacheTest : public QObject {
    Q_OBJECT

private slots:
    void shownAskersDoNotWaitForLaterBuilders() {
        const std::shared_ptr<const CompiledWorld> world = compiledSample("nav_stairs.map");
        NavMeshCache cache;
        MeshFuture later, laterToo, shownAsked;
        Gate gate;
        std::atomic<int> laterBuilds = 0, shownBuilds = 0;
        cache.setBeforeBuild([&, opened = gate.opened()](MeshAsker asker) {
            if (asker == MeshAsker::Later) {
                ++laterBuilds;
                opened.wait(); // the spawn checks' builder, starved
            } else {
                ++shownBuilds;
            }
        });
        auto ask = [&](MeshAsker asker) {
            return std::async(std::launch::async, [&, asker] { return cache.get(world, kPlayer, asker); });
        };
        later = ask(MeshAsker::Later);
        QVERIFY(QTest::qWaitFor([&] { return laterBuilds == 1; }, 5000));
        // Another later asker waits for the later builder.
        laterToo = ask(MeshAsker::Later);
        QVERIFY(laterToo.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
        // The screen's asker builds its own at once; those after it are handed that one.
        shownAsked = ask(MeshAsker::Shown);
        QVERIFY2(shownAsked.wait_for(std::chrono::seconds(10)) == std::future_status::ready,
                 "the screen's asker waited for the later builder");
        const std::shared_ptr<const NavMesh> shown = shownAsked.get();
        QVERIFY(shown && !shown->polygons.empty());
        QCOMPARE(shownBuilds.load(), 1);
        QVERIFY(later.wait_for(std::chrono::seconds(0)) == std::future_status::timeout);
        QCOMPARE(cache.get(world, kPlayer, MeshAsker::Shown), shown);
        QCOMPARE(cache.get(world, kPlayer, MeshAsker::Later), shown);
        QCOMPARE(shownBuilds.load(), 1);
        gate.open();
        const std::shared_ptr<const NavMesh> fromLater = later.get();
        QCOMPARE(laterToo.get(), fromLater);
        QCOMPARE(laterBuilds.load(), 1);
        QVERIFY(sameMesh(*fromLater, *shown));
    }

    void laterAskersWaitForTheShownBuilder() {
        const std::shared_ptr<const CompiledWorld> world = compiledSample("nav_stairs.map");
        NavMeshCache cache;
        MeshFuture shown, later, shownToo;
        Gate gate;
        std::atomic<int> builds = 0;
        cache.setBeforeBuild([&, opened = gate.opened()](MeshAsker) {
            ++builds;
            opened.wait();
        });
        auto ask = [&](MeshAsker asker) {
            return std::async(std::launch::async, [&, asker] { return cache.get(world, kPlayer, asker); });
        };
        shown = ask(MeshAsker::Shown);
        QVERIFY(QTest::qWaitFor([&] { return builds == 1; }, 5000));
        later = ask(MeshAsker::Later);
        shownToo = ask(MeshAsker::Shown);
        QVERIFY(later.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
        gate.open();
        const std::shared_ptr<const NavMesh> mesh = shown.get();
        QCOMPARE(later.get(), mesh);
        QCOMPARE(shownToo.get(), mesh);
        QCOMPARE(builds.load(), 1);
    }
};

QTEST_GUILESS_MAIN(NavMeshCacheTest)
#include "nav_mesh_cache_gui_test.moc"
