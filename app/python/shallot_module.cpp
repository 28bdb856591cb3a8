// The Python module `shallot`: the runtime (<shallot/runtime.h>) on NumPy arrays. Batches
// run in C++ with the GIL released; errors raise shallot.Error with the runtime's message.
// docs/runtime.md, "Python".
#include "shallot/runtime.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <variant>

namespace py = pybind11;
namespace rt = shallot::runtime;

namespace {

struct ShallotError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <class T>
T valueOf(rt::Result<T> r) {
    if (!r) throw ShallotError(r.error);
    return std::move(r.value);
}

void check(const rt::Status& s) {
    if (!s) throw ShallotError(s.error);
}

using Points = py::array_t<double, py::array::c_style | py::array::forcecast>;

// An N x 3 array of coordinates (any numeric type: converted to contiguous float64).
Points points(const py::handle& object, const char* name) {
    Points a = Points::ensure(object);
    if (!a || a.ndim() != 2 || a.shape(1) != 3)
        throw py::value_error(std::string(name) + " must be an N x 3 array of coordinates");
    return a;
}

rt::Vec3 vec3(const py::handle& object, const char* name) {
    Points a = Points::ensure(object);
    if (!a || a.size() != 3) throw py::value_error(std::string(name) + " must be 3 coordinates");
    return {a.data()[0], a.data()[1], a.data()[2]};
}

py::tuple tuple3(const rt::Vec3& v) { return py::make_tuple(v.x, v.y, v.z); }

// A pose given by name or index.
int poseOf(const rt::Tree& tree, const std::variant<int, std::string>& pose) {
    if (const int* index = std::get_if<int>(&pose)) return *index;
    const std::string& name = std::get<std::string>(pose);
    const int index = tree.poseIndex(name);
    if (index < 0) throw ShallotError("unknown pose \"" + name + "\"");
    return index;
}

// The arrays of a batch of n traces, and where the runtime writes into them.
struct TraceArrays {
    py::array_t<bool> startSolid, allSolid, hit;
    py::array_t<double> t, point, normal;

    explicit TraceArrays(size_t n)
        : startSolid(py::ssize_t(n)), allSolid(py::ssize_t(n)), hit(py::ssize_t(n)), t(py::ssize_t(n)),
          point({py::ssize_t(n), py::ssize_t(3)}), normal({py::ssize_t(n), py::ssize_t(3)}) {}
    rt::Tree::HitColumns columns() {
        return {startSolid.mutable_data(), allSolid.mutable_data(), hit.mutable_data(),
                t.mutable_data(),          point.mutable_data(),    normal.mutable_data()};
    }
    py::dict dict() const {
        py::dict out;
        out["start_solid"] = startSolid;
        out["all_solid"] = allSolid;
        out["hit"] = hit;
        out["t"] = t;
        out["point"] = point;
        out["normal"] = normal;
        return out;
    }
};

py::array_t<bool> classify(const rt::Tree& tree, const py::handle& object) {
    const Points p = points(object, "points");
    const size_t n = size_t(p.shape(0)), poses = tree.poses().size();
    std::vector<uint64_t> solid(n);
    rt::Status status;
    {
        py::gil_scoped_release release;
        status = tree.classifyBatch(p.data(), n, solid.data());
    }
    check(status);
    py::array_t<bool> out({py::ssize_t(n), py::ssize_t(poses)});
    bool* o = out.mutable_data();
    for (size_t i = 0; i < n; ++i)
        for (size_t k = 0; k < poses; ++k) o[i * poses + k] = (solid[i] >> k) & 1u;
    return out;
}

py::dict trace(const rt::Tree& tree, const std::variant<int, std::string>& pose, const py::handle& starts,
               const py::handle& ends, int threads) {
    const Points a = points(starts, "starts"), b = points(ends, "ends");
    if (a.shape(0) != b.shape(0)) throw py::value_error("starts and ends must have the same number of rows");
    const int index = poseOf(tree, pose);
    const size_t n = size_t(a.shape(0));
    TraceArrays out(n);
    const rt::Tree::HitColumns columns = out.columns();
    rt::Status status;
    {
        py::gil_scoped_release release;
        status = tree.traceBatch(index, a.data(), b.data(), n, columns, threads);
    }
    check(status);
    return out.dict();
}

py::dict traceBox(const rt::Tree& tree, const py::handle& mins, const py::handle& maxs, const py::handle& starts,
                  const py::handle& ends) {
    const rt::Vec3 lo = vec3(mins, "mins"), hi = vec3(maxs, "maxs");
    const Points a = points(starts, "starts"), b = points(ends, "ends");
    if (a.shape(0) != b.shape(0)) throw py::value_error("starts and ends must have the same number of rows");
    const size_t n = size_t(a.shape(0));
    TraceArrays out(n);
    const rt::Tree::HitColumns c = out.columns();
    std::string error;
    {
        py::gil_scoped_release release;
        const double *p = a.data(), *q = b.data();
        for (size_t i = 0; i < n && error.empty(); ++i) {
            const rt::Result<rt::Hit> r = tree.traceBox(lo, hi, {p[3 * i], p[3 * i + 1], p[3 * i + 2]},
                                                        {q[3 * i], q[3 * i + 1], q[3 * i + 2]});
            if (!r) error = "row " + std::to_string(i) + ": " + r.error;
            const rt::Hit& h = r.value;
            c.startSolid[i] = h.startSolid, c.allSolid[i] = h.allSolid, c.hit[i] = h.hit, c.t[i] = h.t;
            const double point[3] = {h.point.x, h.point.y, h.point.z}, normal[3] = {h.normal.x, h.normal.y, h.normal.z};
            std::copy(point, point + 3, c.point + 3 * i);
            std::copy(normal, normal + 3, c.normal + 3 * i);
        }
    }
    if (!error.empty()) throw ShallotError(error);
    return out.dict();
}

py::dict move(const rt::Tree& tree, const std::variant<int, std::string>& pose, const py::handle& start,
              const py::handle& delta, double step) {
    const rt::Move m = valueOf(tree.move(poseOf(tree, pose), vec3(start, "start"), vec3(delta, "delta"), step));
    py::list contacts;
    for (const rt::Contact& c : m.contacts) {
        py::dict d;
        d["point"] = tuple3(c.point);
        d["normal"] = tuple3(c.normal);
        d["t"] = c.t;
        contacts.append(d);
    }
    py::dict out;
    out["end"] = tuple3(m.end);
    out["contacts"] = contacts;
    out["start_solid"] = m.startSolid;
    out["stepped"] = m.stepped;
    return out;
}

py::dict moveBatch(const rt::Tree& tree, const std::variant<int, std::string>& pose, const py::handle& starts,
                   const py::handle& deltas, double step) {
    const Points a = points(starts, "starts"), d = points(deltas, "deltas");
    if (a.shape(0) != d.shape(0)) throw py::value_error("starts and deltas must have the same number of rows");
    const int index = poseOf(tree, pose);
    const py::ssize_t n = a.shape(0);
    py::array_t<double> end({n, py::ssize_t(3)});
    py::array_t<bool> startSolid{n}, stepped{n};
    py::array_t<uint32_t> contacts{n};
    const rt::Tree::MoveColumns columns{end.mutable_data(), startSolid.mutable_data(), stepped.mutable_data(),
                                        contacts.mutable_data()};
    rt::Status status;
    {
        py::gil_scoped_release release;
        status = tree.moveBatch(index, a.data(), d.data(), size_t(n), step, columns);
    }
    check(status);
    py::dict out;
    out["end"] = end;
    out["start_solid"] = startSolid;
    out["stepped"] = stepped;
    out["contacts"] = contacts;
    return out;
}

py::dict reach(const rt::Tree& tree, const std::variant<int, std::string>& pose, const py::handle& from,
               const py::handle& to, bool movers) {
    const int p = poseOf(tree, pose);
    const rt::Vec3 a = vec3(from, "from"), b = vec3(to, "to");
    const rt::Reach r = valueOf(movers ? tree.reachWithMovers(p, a, b) : tree.reach(p, a, b));
    py::dict out;
    out["reachable"] = r.reachable;
    out["from_leaf"] = r.fromLeaf;
    out["to_leaf"] = r.toLeaf;
    return out;
}

py::dict path(const rt::Tree& tree, const std::variant<int, std::string>& pose, const py::handle& from,
             const py::handle& to) {
    const rt::Path p = valueOf(tree.path(poseOf(tree, pose), vec3(from, "from"), vec3(to, "to")));
    py::array_t<double> points{{py::ssize_t(p.points.size()), py::ssize_t(3)}};
    double* out = points.mutable_data();
    for (const rt::Vec3& v : p.points) *out++ = v.x, *out++ = v.y, *out++ = v.z;
    py::dict d;
    d["found"] = p.found;
    d["length"] = p.length;
    d["points"] = points;
    return d;
}

py::dict travelPath(const rt::Tree& tree, const std::variant<int, std::string>& pose, const py::handle& from,
                    const py::handle& to) {
    rt::Result<rt::Route> r;
    const int index = poseOf(tree, pose);
    const rt::Vec3 a = vec3(from, "from"), b = vec3(to, "to");
    {
        py::gil_scoped_release release; // the first call for a pose builds its travel links
        r = tree.travelPath(index, a, b);
    }
    const rt::Route route = valueOf(std::move(r));
    py::array_t<double> points{{py::ssize_t(route.points.size()), py::ssize_t(3)}};
    double* out = points.mutable_data();
    for (const rt::Vec3& v : route.points) *out++ = v.x, *out++ = v.y, *out++ = v.z;
    py::list steps;
    for (const rt::RouteStep& s : route.steps) {
        py::dict step;
        step["type"] = s.type;
        step["from"] = tuple3(s.from);
        step["to"] = tuple3(s.to);
        step["seconds"] = s.seconds;
        if (s.entity >= 0) step["entity"] = s.entity;
        steps.append(step);
    }
    py::dict d;
    d["found"] = route.found;
    d["length"] = route.length;
    d["time"] = route.seconds;
    d["points"] = points;
    d["travel"] = steps;
    return d;
}

py::dict reachFrom(const rt::Tree& tree, const std::variant<int, std::string>& pose, const py::handle& start) {
    const rt::Region r = valueOf(tree.reachFrom(poseOf(tree, pose), vec3(start, "start")));
    py::array_t<bool> reached{py::ssize_t(r.reached.size())};
    std::copy(r.reached.begin(), r.reached.end(), reached.mutable_data());
    py::array_t<double> path({py::ssize_t(r.leakPath.size()), py::ssize_t(3)});
    double* p = path.mutable_data();
    for (const rt::Vec3& v : r.leakPath) *p++ = v.x, *p++ = v.y, *p++ = v.z;
    py::dict out;
    out["start_leaf"] = r.startLeaf;
    out["reachable_leaves"] = r.reachedLeaves;
    out["volume"] = r.volume;
    out["leak"] = r.leak;
    out["leak_path"] = path;
    out["reached"] = reached;
    return out;
}

py::dict visible(const rt::Tree& tree, const py::handle& from, const py::handle& to) {
    const rt::Visibility v = valueOf(tree.visible(vec3(from, "start"), vec3(to, "end")));
    py::dict out;
    out["pvs"] = v.pvs;
    out["pvs_known"] = v.pvsKnown;
    out["clear"] = v.clear;
    out["from_leaf"] = v.fromLeaf;
    out["to_leaf"] = v.toLeaf;
    return out;
}

py::dict visibleBatch(const rt::Tree& tree, const py::handle& starts, const py::handle& ends, int threads) {
    const Points a = points(starts, "starts"), b = points(ends, "ends");
    if (a.shape(0) != b.shape(0)) throw py::value_error("starts and ends must have the same number of rows");
    const py::ssize_t n = a.shape(0);
    py::array_t<bool> pvs{n}, known{n}, clear{n};
    py::array_t<int32_t> fromLeaf{n}, toLeaf{n};
    const rt::Tree::VisibilityColumns columns{pvs.mutable_data(), known.mutable_data(), clear.mutable_data(),
                                              fromLeaf.mutable_data(), toLeaf.mutable_data()};
    rt::Status status;
    {
        py::gil_scoped_release release;
        status = tree.visibleBatch(a.data(), b.data(), size_t(n), columns, threads);
    }
    check(status);
    py::dict out;
    out["pvs"] = pvs;
    out["pvs_known"] = known;
    out["clear"] = clear;
    out["from_leaf"] = fromLeaf;
    out["to_leaf"] = toLeaf;
    return out;
}

py::array_t<int32_t> leaves(const rt::Tree& tree, const py::handle& object) {
    const Points p = points(object, "points");
    const size_t n = size_t(p.shape(0));
    std::vector<uint64_t> solid(n);
    py::array_t<int32_t> out{py::ssize_t(n)};
    int32_t* leaf = out.mutable_data();
    rt::Status status;
    {
        py::gil_scoped_release release;
        status = tree.classifyBatch(p.data(), n, solid.data(), leaf);
    }
    check(status);
    return out;
}

// A mover's state as shallot-cli query's "movers" field writes it: "closed", "open", a
// number, "corner N".
py::object stateObject(const rt::MoverState& s) {
    switch (s.kind) {
    case rt::MoverState::Kind::Open: return py::str("open");
    case rt::MoverState::Kind::Fraction: return py::float_(s.fraction);
    case rt::MoverState::Kind::Corner: return py::str("corner " + std::to_string(s.corner));
    case rt::MoverState::Kind::Closed: break;
    }
    return py::str("closed");
}

py::list movers(const rt::Tree& tree) {
    py::list out;
    for (const rt::Mover& m : tree.movers()) {
        py::dict d;
        d["entity"] = m.entity;
        d["classname"] = m.classname;
        d["kind"] = m.kind;
        d["spawn"] = m.spawn;
        d["stops"] = m.stops;
        d["mins"] = tuple3(m.mins);
        d["maxs"] = tuple3(m.maxs);
        out.append(d);
    }
    return out;
}

py::dict moverStates(const rt::Tree& tree) {
    py::dict out;
    for (const rt::MoverSetting& m : tree.moverStates()) out[py::int_(m.entity)] = stateObject(m.state);
    return out;
}

// states: {entity: "open" | "closed" | "corner N" | a number in [0, 1]}, as the JSON field
// (entity an int or its digits).
rt::Tree withMovers(const rt::Tree& tree, const py::dict& states) {
    std::vector<rt::MoverSetting> settings;
    for (const auto& [key, value] : states) {
        // An int, or its decimal digits as the JSON field's keys are ("14").
        const bool digits = py::isinstance<py::str>(key) && !key.cast<std::string>().empty() &&
                            key.cast<std::string>().size() <= 9 &&
                            key.cast<std::string>().find_first_not_of("0123456789") == std::string::npos;
        if (!digits && (!py::isinstance<py::int_>(key) || py::isinstance<py::bool_>(key)))
            throw ShallotError("a mover is named by its entity index (an int), not " + py::repr(key).cast<std::string>());
        const int64_t entity = digits ? std::stoll(key.cast<std::string>()) : key.cast<int64_t>();
        if (entity < 0 || entity > INT32_MAX) throw ShallotError("no mover at entity " + std::to_string(entity));
        rt::MoverState state;
        if (py::isinstance<py::str>(value)) {
            state = valueOf(rt::MoverState::parse(value.cast<std::string>()));
        } else if ((py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value)) &&
                   !py::isinstance<py::bool_>(value)) {
            state = rt::MoverState::at(value.cast<double>()); // withMovers checks the range (NaN too)
        } else {
            throw ShallotError("the state of entity " + std::to_string(entity) +
                               " must be \"open\", \"closed\", a number in [0, 1] or \"corner N\"");
        }
        settings.push_back({int32_t(entity), state});
    }
    return valueOf(tree.withMovers(settings));
}

py::dict traceMover(const rt::Tree& tree, const std::variant<int, std::string>& pose, const py::handle& from,
                    const py::handle& to) {
    const rt::MoverHit r = valueOf(tree.traceWithMover(poseOf(tree, pose), vec3(from, "start"), vec3(to, "end")));
    py::dict out;
    out["start_solid"] = r.hit.startSolid;
    out["all_solid"] = r.hit.allSolid;
    out["hit"] = r.hit.hit;
    out["t"] = r.hit.t;
    out["point"] = tuple3(r.hit.point);
    out["normal"] = tuple3(r.hit.normal);
    out["mover"] = r.mover >= 0 ? py::object(py::int_(r.mover)) : py::object(py::none());
    return out;
}

// round: {name: "ellipsoid:R,H" | "capsule:R,HEIGHT"}, as shallot-cli's --pose NAME=...
rt::Tree withRoundPoses(const rt::Tree& tree, const py::dict& round) {
    std::vector<rt::RoundPose> poses;
    for (const auto& [name, shape] : round) {
        if (!py::isinstance<py::str>(name) || !py::isinstance<py::str>(shape))
            throw ShallotError("round poses are {name: \"ellipsoid:R,H\" or \"capsule:R,HEIGHT\"}");
        poses.push_back(valueOf(rt::RoundPose::parse(name.cast<std::string>(), shape.cast<std::string>())));
    }
    return valueOf(tree.withRoundPoses(poses));
}

py::dict roundPoses(const rt::Tree& tree) {
    py::dict out;
    for (const rt::RoundPose& r : tree.roundPoses())
        out[py::str(r.name)] =
            py::make_tuple(r.shape == rt::RoundPose::Shape::Ellipsoid ? "ellipsoid" : "capsule", r.radius, r.height);
    return out;
}

// poses: None, {name: (mins, maxs)} or [(name, mins, maxs), ...].
std::vector<rt::PoseBox> poseBoxes(const py::object& poses) {
    std::vector<rt::PoseBox> out;
    if (poses.is_none()) return out;
    if (py::isinstance<py::dict>(poses)) {
        for (const auto& [name, box] : poses.cast<py::dict>()) {
            const py::tuple t = py::reinterpret_borrow<py::object>(box).cast<py::tuple>();
            if (t.size() != 2) throw py::value_error("a pose's value must be (mins, maxs)");
            out.push_back({name.cast<std::string>(), vec3(t[0], "mins"), vec3(t[1], "maxs")});
        }
        return out;
    }
    for (const py::handle& item : poses) {
        const py::tuple t = py::reinterpret_borrow<py::object>(item).cast<py::tuple>();
        if (t.size() != 3) throw py::value_error("a pose must be (name, mins, maxs)");
        out.push_back({t[0].cast<std::string>(), vec3(t[1], "mins"), vec3(t[2], "maxs")});
    }
    return out;
}

rt::Tree compileMap(const std::string& path, const py::object& poses, int threads) {
    const std::vector<rt::PoseBox> boxes = poseBoxes(poses);
    py::gil_scoped_release release;
    return valueOf(rt::Tree::compileMap(path, boxes, threads));
}

} // namespace

PYBIND11_MODULE(shallot, m) {
    m.doc() = "Shallot onion BSP trees: load or compile a level, classify points and trace boxes per pose "
              "(docs/runtime.md)";
    py::register_exception<ShallotError>(m, "Error", PyExc_ValueError);

    py::class_<rt::Tree>(m, "Tree", "A compiled level (.obsp); immutable, safe to query from many threads")
        .def_static(
            "load", [](const std::string& path) { return valueOf(rt::Tree::loadFile(path)); }, py::arg("path"),
            "Loads an .obsp file")
        .def_static(
            "from_bytes",
            [](const py::bytes& data) {
                const std::string_view bytes = data;
                return valueOf(rt::Tree::loadBuffer(bytes.data(), bytes.size()));
            },
            py::arg("data"), "Loads an .obsp image")
        .def(
            "save", [](const rt::Tree& t, const std::string& path, bool brushes) { check(t.save(path, brushes)); },
            py::arg("path"), py::arg("brushes") = true, "Writes the tree as .obsp (with its brushes by default)")
        .def_property_readonly("poses",
                               [](const rt::Tree& t) {
                                   std::vector<std::string> names;
                                   for (const rt::PoseBox& p : t.poses()) names.push_back(p.name);
                                   return names;
                               })
        .def_property_readonly("pose_boxes",
                               [](const rt::Tree& t) {
                                   py::dict boxes;
                                   for (const rt::PoseBox& p : t.poses())
                                       boxes[py::str(p.name)] = py::make_tuple(tuple3(p.mins), tuple3(p.maxs));
                                   return boxes;
                               })
        .def_property_readonly("has_brushes", &rt::Tree::hasBrushes)
        .def_property_readonly("has_pvs", &rt::Tree::hasPvs)
        .def(
            "with_pvs",
            [](const rt::Tree& t, bool fast, int threads) {
                py::gil_scoped_release release;
                return valueOf(t.withPvs(!fast, threads));
            },
            py::arg("fast") = false, py::arg("threads") = 1,
            "The same tree with the sight pose's PVS computed (as shallot-cli vis; fast: the base flow)")
        .def_property_readonly("warnings", &rt::Tree::warnings)
        .def("classify", &classify, py::arg("points"),
             "N x 3 points -> N x len(poses) bool array: solid per pose")
        .def("trace", &trace, py::arg("pose"), py::arg("starts"), py::arg("ends"), py::arg("threads") = 1,
             "Sweeps the pose's box along each row; returns a dict of arrays start_solid, all_solid, hit, t, "
             "point, normal")
        .def("trace_box", &traceBox, py::arg("mins"), py::arg("maxs"), py::arg("starts"), py::arg("ends"),
             "As trace, for any box (needs the brushes unless it is a pose's box); the movers are met at their states")
        .def("move", &move, py::arg("pose"), py::arg("start"), py::arg("delta"), py::arg("step") = 0.0,
             "Collide and slide; returns a dict end, contacts, start_solid, stepped")
        .def("move_batch", &moveBatch, py::arg("pose"), py::arg("starts"), py::arg("deltas"), py::arg("step") = 0.0,
             "move for each row (many agents, one step each); returns a dict of arrays end (N x 3), "
             "start_solid, stepped, contacts (their number)")
        .def("reach", &reach, py::arg("pose"), py::arg("start"), py::arg("end"), py::arg("movers") = false,
             "Whether the pose can get from start to end; returns a dict reachable, from_leaf, to_leaf. "
             "movers=True: through the world with the movers at their states (with_movers), compiled "
             "together on the first such call; the leaves are that tree's")
        .def("path", &path, py::arg("pose"), py::arg("start"), py::arg("end"),
             "The walking path (each end dropped onto the floor below it); returns a dict found, length, "
             "points (K x 3: the corners where the pose's box stands on a floor)")
        .def("travel_path", &travelPath, py::arg("pose"), py::arg("start"), py::arg("end"),
             "The path with typed travel (query's path op): a dict found, length, time, points (K x 3) and "
             "travel (a list of dicts type, from, to, seconds and, on doors, rides and teleports, entity)")
        .def("reach_from", &reachFrom, py::arg("pose"), py::arg("start"),
             "What the pose reaches from start; returns a dict start_leaf, reachable_leaves, volume, leak, "
             "leak_path (K x 3) and reached (a bool per leaf: index it with leaves(points))")
        .def("visible", &visible, py::arg("start"), py::arg("end"),
             "Whether start may see end (the sight pose); returns a dict pvs, pvs_known, clear, from_leaf, to_leaf")
        .def("visible_batch", &visibleBatch, py::arg("starts"), py::arg("ends"), py::arg("threads") = 1,
             "visible for each row; returns a dict of arrays pvs, pvs_known, clear, from_leaf, to_leaf")
        .def("leaves", &leaves, py::arg("points"), "N x 3 points -> the leaf of each (int32)")
        .def_property_readonly("movers", &movers,
                               "The level's movers: dicts entity, classname, kind, spawn, stops, mins, maxs")
        .def_property_readonly("mover_states", &moverStates,
                               "{entity: state} of every mover in this tree (\"closed\", \"open\", a number, "
                               "\"corner N\")")
        .def("with_movers", &withMovers, py::arg("states"),
             "The same level with movers at states {entity: \"open\" | \"closed\" | \"corner N\" | a number in "
             "[0, 1]} (others where the level spawns them); classify, trace, trace_box of a pose's box, move and "
             "move_batch then answer for them")
        .def("with_round_poses", &withRoundPoses, py::arg("poses"),
             "The same tree with round poses {name: \"ellipsoid:R,H\" | \"capsule:R,HEIGHT\"} after its own "
             "(replacing any it had): classify, trace, trace_mover, move and move_batch answer them exactly "
             "against the brushes and the movers at their states; reach and path refuse them")
        .def_property_readonly("round_poses", &roundPoses,
                               "{name: (\"ellipsoid\" | \"capsule\", radius, height)} of the round poses")
        .def("trace_mover", &traceMover, py::arg("pose"), py::arg("start"), py::arg("end"),
             "One trace; returns a dict start_solid, all_solid, hit, t, point, normal and mover (the entity "
             "whose mover it came from, or None)")
        .def_property_readonly("leaf_count", &rt::Tree::leafCount);

    m.def("compile", &compileMap, py::arg("map_path"), py::arg("poses") = py::none(), py::arg("threads") = 1,
          "Compiles a .map into a Tree; poses: {name: (mins, maxs)} or [(name, mins, maxs)], default the map's "
          "or Quake's three hulls");
}
