#include "query_processor.h"

#include "cli_common.h"
#include "query_reach.h"

#include "query/slide_move.h"
#include "query/trace.h"

#include "movers/mover.h"
#include "movers/placed_movers.h"
#include "objects/placed_move_spaces.h"
#include "world/round_pose_boxes.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

namespace shallot::cli {

namespace {

QJsonObject error(const QString& message, bool& ok) {
    ok = false;
    return QJsonObject{{"error", message}};
}

// As toJson, with -0 written as 0 (flipped planes have negative zeros in their normals).
QJsonArray vectorJson(const Vec3& v) { return toJson(v + Vec3::Zero()); }

QJsonObject traceJson(const TraceResult& r) {
    return QJsonObject{{"start_solid", r.startSolid},
                       {"hit", r.hit},
                       {"t", r.t},
                       {"point", vectorJson(r.point)},
                       {"normal", vectorJson(r.hit ? r.normal : Vec3::Zero())}};
}

} // namespace

bool readPoint(const QJsonValue& value, Vec3& out) {
    if (!value.isArray()) return false;
    const QJsonArray a = value.toArray();
    if (a.size() != 3) return false;
    for (int i = 0; i < 3; ++i) {
        if (!a[i].isDouble()) return false;
        out[i] = a[i].toDouble();
        if (!std::isfinite(out[i])) return false;
    }
    return true;
}

bool readQueryPoint(const QJsonValue& value, Vec3& out) {
    return readPoint(value, out) && out.cwiseAbs().maxCoeff() <= kMaxQueryCoordinate;
}

QString pointError(const char* field) {
    return QString("\"%1\" must be an array of 3 finite numbers within +-%2").arg(field).arg(kMaxQueryCoordinate);
}

int readPose(const BspTree& tree, const QJsonObject& query, QString& message) {
    const QJsonValue name = query.value("pose");
    if (!name.isString()) {
        message = "\"pose\" must be a pose name";
        return -1;
    }
    const int pose = tree.poseIndex(name.toString().toStdString());
    if (pose < 0) message = "unknown pose \"" + name.toString() + "\"";
    return pose;
}

QueryProcessor::QueryProcessor(const BspTree& tree, const World* world, const TreePvs* pvs,
                               const std::vector<MapEntity>* entities, std::string file, const LevelLighting* lighting)
    : tree_(tree), world_(world), brushes_(world), paths_(tree, world ? &world->poses : nullptr), visible_(tree, pvs, world),
      light_(tree, world, entities, std::move(file), lighting) {
    if (!world) return;
    for (const Pose& pose : world->poses) {
        if (!pose.shape.isRound()) continue;
        RoundPose r;
        r.treePose = tree.poseIndex(pose.name);
        if (r.treePose < 0) continue;
        r.exact = std::make_unique<RoundPoseWorld>(*world, pose);
        try {
            r.queries = std::make_unique<RoundPoseQueries>(*r.exact, tree);
        } catch (const std::invalid_argument&) {
            // A stored tree without the inscribed box: the exact tests alone answer.
        }
        round_.push_back(std::move(r));
    }
}

void QueryProcessor::setLevelObjects(const LevelObjects* level) {
    level_ = level;
    spawnScene_.reset();
    moverShapes_.reset();
    if (!level || level->objects.empty()) return;
    moverShapes_ = std::make_unique<MoverShapes>(level->movers.movers, tree_.bounds);
    spawnScene_ = std::make_unique<CollisionScene>(tree_, level->pointers());
    const std::vector<Vec3> offsets = level->offsets();
    for (size_t i = 0; i < offsets.size(); ++i) spawnScene_->setObjectOffset(i, offsets[i]);
    spawnScene_->rebuildGrid();
}

bool QueryProcessor::moverOffsets(const QJsonObject& query, std::optional<std::vector<Vec3>>& offsets, QString& message) const {
    offsets.reset();
    if (!query.contains("movers")) return true;
    const QJsonValue field = query.value("movers");
    if (!field.isObject()) {
        message = "\"movers\" must be an object {\"<entity index>\": \"open\"|\"closed\"|F|\"corner N\"}";
        return false;
    }
    const QJsonObject states = field.toObject();
    if (states.isEmpty()) return true;
    std::map<int, MoverState> wanted;
    for (auto it = states.begin(); it != states.end(); ++it) {
        bool isNumber = false;
        const int entity = it.key().toInt(&isNumber);
        const Mover* mover = level_ && isNumber ? level_->movers.forEntity(entity) : nullptr;
        if (!mover) {
            message = "\"movers\": no mover at entity \"" + it.key() + "\"" +
                      (level_ ? QString()
                              : QString(" (movers need the level's entities: query a .map, or a .obsp compiled "
                                        "from one by this version)"));
            return false;
        }
        std::optional<MoverState> state;
        if (it.value().isDouble()) {
            const double f = it.value().toDouble();
            if (std::isfinite(f) && f >= 0.0 && f <= 1.0) state = MoverState::at(f);
        } else if (it.value().isString()) {
            state = parseMoverState(it.value().toString().toStdString());
        }
        if (!state) {
            message = "\"movers\": the state of entity " + it.key() +
                      " must be \"open\", \"closed\", a number in [0, 1] or \"corner N\"";
            return false;
        }
        wanted[entity] = *state;
    }
    offsets = level_->offsets(wanted);
    return true;
}

bool QueryProcessor::sceneFor(const QJsonObject& query, std::unique_ptr<CollisionScene>& placed,
                              const CollisionScene*& scene, QString& message) const {
    scene = spawnScene_.get();
    std::optional<std::vector<Vec3>> offsets;
    if (!moverOffsets(query, offsets, message)) return false;
    if (!offsets) return true;
    placed = std::make_unique<CollisionScene>(*spawnScene_);
    for (size_t i = 0; i < offsets->size(); ++i) placed->setObjectOffset(i, (*offsets)[i]);
    placed->rebuildGrid();
    scene = placed.get();
    return true;
}

QJsonObject QueryProcessor::reach(const QJsonObject& query, bool& ok) const {
    std::optional<std::vector<Vec3>> offsets;
    QString message;
    if (!moverOffsets(query, offsets, message)) return error(message, ok);
    if (!offsets) return answerReach(tree_, query, ok); // the world alone, as before
    if (!brushes_)
        return error("\"movers\": reach with movers floods the level's brushes with the movers' placed: "
                     "query the .map, or a .obsp with its brushes (this one was saved without them)", ok);
    std::shared_ptr<const CompileResult> placed;
    {
        // One compile per set of places, kept for the next queries (a script asks many
        // reaches of one state); a few sets at most.
        std::lock_guard lock(placedTreesMutex_);
        for (const auto& [at, tree] : placedTrees_)
            if (at == *offsets) placed = tree;
        if (!placed) {
            World world = worldWithMovers(*brushes_, level_->movers.movers, *offsets);
            world.poses = treePoses(world.poses);
            placed = std::make_shared<const CompileResult>(compileWorld(world));
            if (placedTrees_.size() >= kPlacedTreesKept) placedTrees_.erase(placedTrees_.begin());
            placedTrees_.emplace_back(*offsets, placed);
        }
    }
    if (!placed->error.empty()) return error("\"movers\": the level with its movers placed does not compile: " +
                                             QString::fromStdString(placed->error), ok);
    return answerReach(placed->onion, query, ok);
}

const MoveSpace* QueryProcessor::roundPose(int pose) const {
    for (const RoundPose& r : round_)
        if (r.treePose == pose) return r.queries ? static_cast<const MoveSpace*>(r.queries.get()) : r.exact.get();
    return nullptr;
}

PlacedMoveSpaces QueryProcessor::withMovers(const MoveSpace& world, int roundPose, const CollisionScene* scene) const {
    std::vector<PlacedSpace> parts;
    if (scene && moverShapes_)
        for (const RoundPose& r : round_)
            if (r.treePose == roundPose) parts = moverShapes_->roundParts(r.exact->pose(), scene->objectOffsets());
    return PlacedMoveSpaces(world, std::move(parts));
}

QJsonObject QueryProcessor::answer(const QByteArray& line, bool& ok) const {
    ok = true;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return error("malformed JSON at offset " + QString::number(parseError.offset) + ": " + parseError.errorString(), ok);
    if (!doc.isObject()) return error("a query must be a JSON object", ok);
    const QJsonObject query = doc.object();
    QJsonObject out = answerOp(query, ok);
    if (query.contains("id")) out["id"] = query.value("id");
    return out;
}

QJsonObject QueryProcessor::answerOp(const QJsonObject& query, bool& ok) const {
    const QString op = query.value("op").toString();
    if (op == "classify") return classify(query, ok);
    if (op == "trace") return trace(query, ok);
    if (op == "move") return move(query, ok);
    if (op == "reach") return reach(query, ok);
    if (op == "path") return paths_.answer(query, ok);
    if (op == "visible") return visible_.answer(query, ok);
    if (op == "light") return light_.answer(query, ok);
    if (op.isEmpty()) return error("missing \"op\"", ok);
    return error("unknown op \"" + op + "\"", ok);
}

QJsonObject QueryProcessor::classify(const QJsonObject& query, bool& ok) const {
    Vec3 p;
    if (!readPoint(query.value("p"), p)) return error("\"p\" must be an array of 3 finite numbers", ok);
    std::unique_ptr<CollisionScene> placed;
    const CollisionScene* scene = nullptr;
    QString message;
    if (!sceneFor(query, placed, scene, message)) return error(message, ok);
    const int32_t leaf = tree_.findLeaf(p);
    const uint64_t bits = tree_.leafSolid[size_t(leaf)];
    SceneScratch scratch;
    StageCounts counts;
    QJsonObject solid;
    for (size_t i = 0; i < tree_.poses.size(); ++i) {
        const MoveSpace* round = roundPose(int(i));
        solid[QString::fromStdString(tree_.poses[i].name)] = round   ? withMovers(*round, int(i), scene).isSolid(p)
                                                             : scene ? scene->isSolid({int(i), -1}, p, scratch, counts)
                                                                     : bool((bits >> i) & 1u);
    }
    return QJsonObject{{"solid", solid}, {"leaf", leaf}};
}

int QueryProcessor::poseForBox(const Vec3& mins, const Vec3& maxs) const {
    for (size_t i = 0; i < tree_.poses.size(); ++i) {
        const Pose& pose = tree_.poses[i];
        if (pose.mins != mins || pose.maxs != maxs) continue;
        // The tree answers for the box only when the pose is blocked as any box is.
        bool excluded = pose.blockingSet() != defaultBlocking(pose.isPoint());
        if (brushes_)
            for (const Brush& b : brushes_->brushes)
                for (const std::string& name : b.excludedPoses) excluded |= name == pose.name;
        if (!excluded) return int(i);
    }
    return -1;
}

const BoxTraceWorld& QueryProcessor::boxWorld() const {
    std::call_once(boxWorldOnce_, [&] { boxWorld_ = std::make_unique<BoxTraceWorld>(BoxTraceWorld::build(*brushes_)); });
    return *boxWorld_;
}

QJsonObject QueryProcessor::trace(const QJsonObject& query, bool& ok) const {
    const bool hasPose = query.contains("pose"), hasBox = query.contains("box");
    if (hasPose == hasBox) return error("a trace needs either \"pose\" or \"box\"", ok);
    Vec3 from, to;
    if (!readQueryPoint(query.value("from"), from)) return error(pointError("from"), ok);
    if (!readQueryPoint(query.value("to"), to)) return error(pointError("to"), ok);
    if (from == to) return error("\"from\" and \"to\" must differ", ok);
    std::unique_ptr<CollisionScene> placed;
    const CollisionScene* scene = nullptr;
    QString message;
    if (!sceneFor(query, placed, scene, message)) return error(message, ok);
    SceneScratch scratch;
    StageCounts counts;
    auto traceTree = [&](int pose) {
        return scene ? scene->trace({pose, -1}, from, to, scratch, counts) : traceSegment(tree_, pose, from, to);
    };
    // The entity of the mover the answer came from (hit, or the start inside it).
    auto withMover = [&](QJsonObject answer) {
        if (scene && scratch.hitObject >= 0 && (answer.value("hit").toBool() || answer.value("start_solid").toBool()))
            answer["mover"] = level_->movers.movers[size_t(scratch.hitObject)].entity;
        return answer;
    };
    if (hasPose) {
        const int pose = readPose(tree_, query, message);
        if (pose < 0) return error(message, ok);
        if (const MoveSpace* round = roundPose(pose)) {
            const PlacedMoveSpaces::Answer a = withMovers(*round, pose, scene).traceWhich(from, to);
            scratch.hitObject = a.part;
            return withMover(traceJson(a.result));
        }
        return withMover(traceJson(traceTree(pose)));
    }
    const QJsonValue box = query.value("box");
    Vec3 mins, maxs;
    if (!box.isObject() || !readQueryPoint(box.toObject().value("mins"), mins) ||
        !readQueryPoint(box.toObject().value("maxs"), maxs) || !(mins.array() <= maxs.array()).all())
        return error("\"box\" must be {\"mins\":[x,y,z],\"maxs\":[x,y,z]} with finite mins <= maxs", ok);
    const int pose = poseForBox(mins, maxs);
    if (pose >= 0) return withMover(traceJson(traceTree(pose)));
    if (!brushes_) return error("arbitrary boxes need the world: query a .map or .shallot", ok);
    const BoxMoveSpace world(boxWorld(), mins, maxs);
    std::vector<BoxMoveSpace> moverSpaces;
    std::vector<PlacedSpace> parts;
    if (scene && moverShapes_) parts = moverShapes_->boxParts(mins, maxs, scene->objectOffsets(), moverSpaces);
    const PlacedMoveSpaces::Answer a = PlacedMoveSpaces(world, std::move(parts)).traceWhich(from, to);
    scratch.hitObject = a.part;
    return withMover(traceJson(a.result));
}

QJsonObject QueryProcessor::move(const QJsonObject& query, bool& ok) const {
    QString message;
    const int pose = readPose(tree_, query, message);
    if (pose < 0) return error(message, ok);
    Vec3 from, delta;
    if (!readQueryPoint(query.value("from"), from)) return error(pointError("from"), ok);
    if (!readQueryPoint(query.value("delta"), delta)) return error(pointError("delta"), ok);
    double step = 0.0;
    if (query.contains("step")) {
        const QJsonValue value = query.value("step");
        step = value.toDouble(-1.0);
        if (!value.isDouble() || !(step >= 0.0 && step <= kMaxQueryCoordinate))
            return error(QString("\"step\" must be a number in [0, %1]").arg(kMaxQueryCoordinate), ok);
    }
    std::unique_ptr<CollisionScene> placed;
    const CollisionScene* scene = nullptr;
    if (!sceneFor(query, placed, scene, message)) return error(message, ok);
    SceneScratch scratch;
    StageCounts counts;
    const MoveSpace* round = roundPose(pose);
    const MoveResult r = round   ? slideMove(withMovers(*round, pose, scene), from, delta, step)
                         : scene ? scene->move({pose, -1}, from, delta, step, scratch, counts)
                                 : slideMove(tree_, pose, from, delta, step);
    QJsonArray contacts;
    for (const Contact& c : r.contacts)
        contacts.append(QJsonObject{{"point", vectorJson(c.point)}, {"normal", vectorJson(c.normal)}, {"t", c.t}});
    return QJsonObject{
        {"end", vectorJson(r.end)}, {"contacts", contacts}, {"start_solid", r.startSolid}, {"stepped", r.stepped}};
}

} // namespace shallot::cli
