#include "io/document_json.h"

#include <QJsonArray>
#include <array>
#include <cmath>
#include <limits>

namespace shallot {

namespace {

// ------------------------------------------------------------------------------ writing

QJsonArray vecJson(const Vec3& v) { return QJsonArray{v.x(), v.y(), v.z()}; }

// Text as a JSON string when it is UTF-8; other bytes (Quake's high-bit "gold" characters)
// as {"base64": ...}, so that no byte is lost.
QJsonValue textJson(const std::string& text) {
    const QByteArray bytes = QByteArray::fromStdString(text);
    const QString utf8 = QString::fromUtf8(bytes);
    if (utf8.toUtf8() == bytes) return utf8;
    return QJsonObject{{"base64", QString::fromLatin1(bytes.toBase64())}};
}

QJsonArray keysJson(const std::vector<std::pair<std::string, std::string>>& keys) {
    QJsonArray a;
    for (const auto& [key, value] : keys) a.append(QJsonArray{textJson(key), textJson(value)});
    return a;
}

QJsonArray textsJson(const std::vector<std::string>& texts) {
    QJsonArray a;
    for (const std::string& t : texts) a.append(textJson(t));
    return a;
}

QJsonObject sideJson(const BrushSide& s) {
    QJsonObject o{{"plane", QJsonObject{{"normal", vecJson(s.plane.normal)}, {"dist", s.plane.dist}}}};
    if (s.hasPoints) o["points"] = QJsonArray{vecJson(s.points[0]), vecJson(s.points[1]), vecJson(s.points[2])};
    if (!s.texture.empty()) o["texture"] = textJson(s.texture);
    if (!s.textureParams.empty()) o["textureParams"] = textJson(s.textureParams);
    if (s.surface)
        o["surface"] = QJsonArray{double(s.surface->contents), double(s.surface->flags), double(s.surface->value)};
    if (!s.textureMatrix.empty()) o["textureMatrix"] = textJson(s.textureMatrix);
    if (s.line != 0) o["line"] = s.line;
    return o;
}

QJsonObject brushJson(const Brush& b) {
    QJsonArray sides;
    for (const BrushSide& s : b.sides) sides.append(sideJson(s));
    QJsonObject o{{"sides", sides}};
    if (b.contents != BrushContents::Solid) o["contents"] = QString::fromStdString(contentsName(b.contents));
    if (!b.excludedPoses.empty()) {
        QJsonArray names;
        for (const std::string& n : b.excludedPoses) names.append(textJson(n));
        o["excludedPoses"] = names;
    }
    const SourceLocation& src = b.source;
    if (!src.file.empty() || src.line != 0 || src.entity != -1 || src.brush != -1)
        o["source"] = QJsonObject{
            {"file", textJson(src.file)}, {"line", src.line}, {"entity", src.entity}, {"brush", src.brush}};
    return o;
}

QJsonArray brushesJson(const std::vector<Brush>& brushes) {
    QJsonArray a;
    for (const Brush& b : brushes) a.append(brushJson(b));
    return a;
}

QString colourJson(uint32_t rgba) { return QString("#%1").arg(rgba, 8, 16, QLatin1Char('0')); }

// ------------------------------------------------------------------------------ reading

// Where a value sits in the document ("brushes[3].sides[2].plane"), built on the stack
// as the reader descends and formatted only for an error. The root has no parent.
struct FieldPath {
    const FieldPath* parent = nullptr;
    const char* key = nullptr; // a member of the parent object, or
    qsizetype index = -1;      // an element of the parent array

    FieldPath operator/(const char* member) const { return {this, member, -1}; }
    FieldPath operator[](qsizetype i) const { return {this, nullptr, i}; }

    QString toString() const {
        if (!parent) return QString(); // the document itself
        const QString head = parent->toString();
        if (key) return head.isEmpty() ? QString(key) : head + '.' + key;
        return head + '[' + QString::number(index) + ']';
    }
};

struct FieldError {
    QString message;
};

[[noreturn]] void fail(const FieldPath& path, const QString& what) { throw FieldError{path.toString() + ' ' + what}; }

QJsonValue member(const QJsonObject& o, const FieldPath& path) {
    const QJsonValue v = o.value(QLatin1String(path.key));
    if (v.isUndefined()) fail(path, "is missing");
    return v;
}

QJsonObject object(const QJsonValue& v, const FieldPath& path) {
    if (!v.isObject()) fail(path, "must be an object");
    return v.toObject();
}

QJsonArray array(const QJsonValue& v, const FieldPath& path) {
    if (!v.isArray()) fail(path, "must be an array");
    return v.toArray();
}

double number(const QJsonValue& v, const FieldPath& path) {
    if (!v.isDouble()) fail(path, "must be a number");
    const double d = v.toDouble();
    if (!std::isfinite(d)) fail(path, "must be a finite number");
    return d;
}

int integer(const QJsonValue& v, const FieldPath& path, int lowest = std::numeric_limits<int>::min()) {
    const double d = number(v, path);
    if (d != std::trunc(d) || d < lowest || d > std::numeric_limits<int>::max())
        fail(path, QString("must be an integer from %1 to %2").arg(lowest).arg(std::numeric_limits<int>::max()));
    return int(d);
}

bool boolean(const QJsonValue& v, const FieldPath& path) {
    if (!v.isBool()) fail(path, "must be true or false");
    return v.toBool();
}

std::string text(const QJsonValue& v, const FieldPath& path) {
    if (v.isString()) return v.toString().toStdString();
    const QJsonValue base64 = v.toObject().value("base64");
    if (!v.isObject() || !base64.isString()) fail(path, "must be a string");
    const auto decoded = QByteArray::fromBase64Encoding(base64.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded) fail(path / "base64", "must be base64 text");
    return decoded.decoded.toStdString();
}

Vec3 vec3(const QJsonValue& v, const FieldPath& path) {
    const QJsonArray a = array(v, path);
    if (a.size() != 3) fail(path, "must be an array of 3 numbers");
    return Vec3(number(a[0], path[0]), number(a[1], path[1]), number(a[2], path[2]));
}

// Calls read(element, elementPath) for each element of the array `o[path.key]`, when present.
template <typename F>
void forEachIn(const QJsonObject& o, const FieldPath& path, F&& read) {
    if (!o.contains(QLatin1String(path.key))) return;
    const QJsonArray a = array(o.value(QLatin1String(path.key)), path);
    for (qsizetype i = 0; i < a.size(); ++i) read(a[i], path[i]);
}

std::vector<std::pair<std::string, std::string>> keysFrom(const QJsonObject& o, const FieldPath& path) {
    std::vector<std::pair<std::string, std::string>> keys;
    forEachIn(o, path, [&](const QJsonValue& v, const FieldPath& p) {
        const QJsonArray pair = array(v, p);
        if (pair.size() != 2) fail(p, "must be an array of 2 strings");
        keys.emplace_back(text(pair[0], p[0]), text(pair[1], p[1]));
    });
    return keys;
}

BrushSide sideFrom(const QJsonValue& v, const FieldPath& path) {
    const QJsonObject o = object(v, path);
    BrushSide s;
    const FieldPath planePath = path / "plane";
    const QJsonObject plane = object(member(o, planePath), planePath);
    s.plane.normal = vec3(member(plane, planePath / "normal"), planePath / "normal");
    s.plane.dist = number(member(plane, planePath / "dist"), planePath / "dist");
    if (o.contains("points")) {
        const FieldPath pointsPath = path / "points";
        const QJsonArray points = array(o.value("points"), pointsPath);
        if (points.size() != 3) fail(pointsPath, "must be an array of 3 points");
        for (qsizetype i = 0; i < 3; ++i) s.points[size_t(i)] = vec3(points[i], pointsPath[i]);
        s.hasPoints = true;
    }
    if (o.contains("texture")) s.texture = text(o.value("texture"), path / "texture");
    if (o.contains("textureParams")) s.textureParams = text(o.value("textureParams"), path / "textureParams");
    if (o.contains("surface")) {
        const FieldPath sp = path / "surface";
        const QJsonArray a = array(o.value("surface"), sp);
        const auto field = [&](qsizetype i, double lo, double hi) {
            const double v = a.size() == 3 ? number(a[i], sp[i]) : NAN;
            if (!(v >= lo && v <= hi && std::trunc(v) == v)) fail(sp, "must be 3 integers [contents, flags, value] within 32 bits");
            return v;
        };
        s.surface = BrushSide::SurfaceFlags{uint32_t(field(0, 0, 4294967295.0)), uint32_t(field(1, 0, 4294967295.0)),
                                            int32_t(field(2, -2147483648.0, 2147483647.0))};
    }
    if (o.contains("textureMatrix")) s.textureMatrix = text(o.value("textureMatrix"), path / "textureMatrix");
    if (o.contains("line")) s.line = integer(o.value("line"), path / "line");
    return s;
}

Brush brushFrom(const QJsonValue& v, const FieldPath& path) {
    const QJsonObject o = object(v, path);
    Brush b;
    array(member(o, path / "sides"), path / "sides"); // required, even when empty
    forEachIn(o, path / "sides", [&](const QJsonValue& s, const FieldPath& p) { b.sides.push_back(sideFrom(s, p)); });
    if (o.contains("contents")) {
        const std::optional<BrushContents> c = parseContents(o.value("contents").toString().toStdString());
        if (!c)
            fail(path / "contents", "must be \"solid\", \"clip\" or \"nonsolid\", or contents joined by '+' (" +
                                        QString::fromStdString(contentsNameList()) + ")");
        b.contents = *c;
    }
    forEachIn(o, path / "excludedPoses",
              [&](const QJsonValue& n, const FieldPath& p) { b.excludedPoses.push_back(text(n, p)); });
    if (o.contains("source")) {
        const FieldPath sp = path / "source";
        const QJsonObject src = object(o.value("source"), sp);
        b.source.file = text(member(src, sp / "file"), sp / "file");
        b.source.line = integer(member(src, sp / "line"), sp / "line");
        b.source.entity = integer(member(src, sp / "entity"), sp / "entity");
        b.source.brush = integer(member(src, sp / "brush"), sp / "brush");
    }
    return b;
}

std::vector<Brush> brushesFrom(const QJsonObject& o, const FieldPath& path) {
    std::vector<Brush> brushes;
    forEachIn(o, path, [&](const QJsonValue& v, const FieldPath& p) { brushes.push_back(brushFrom(v, p)); });
    return brushes;
}

uint32_t colourFrom(const QJsonValue& v, const FieldPath& path) {
    const QString s = v.toString();
    bool ok = false;
    const uint32_t rgba = s.size() == 9 && s[0] == '#' ? s.mid(1).toUInt(&ok, 16) : 0;
    if (!ok) fail(path, "must be a colour \"#rrggbbaa\"");
    return rgba;
}

Pose poseFrom(const QJsonValue& v, const FieldPath& path) {
    const QJsonObject o = object(v, path);
    Pose pose;
    pose.name = text(member(o, path / "name"), path / "name");
    pose.mins = vec3(member(o, path / "mins"), path / "mins");
    pose.maxs = vec3(member(o, path / "maxs"), path / "maxs");
    if (o.contains("colour")) pose.colour = colourFrom(o.value("colour"), path / "colour");
    if (o.contains("blocking")) {
        pose.blocking = parseContents(o.value("blocking").toString().toStdString());
        if (!pose.blocking)
            fail(path / "blocking", "must be contents joined by '+' (" + QString::fromStdString(contentsNameList()) + ")");
    }
    if (o.contains("nav")) {
        for (const QString& field : o.value("nav").toString().split(' ', Qt::SkipEmptyParts))
            if (!applyNavSettingsField(field.toStdString(), pose.nav))
                fail(path / "nav", "must be fields \"slope=Z step=H drop=H|any jump=H,L|off\" separated by spaces");
    }
    // A round pose (world/pose_shape.h): "ellipsoid:R,H" or "capsule:R,HEIGHT"; its mins
    // and maxs are written too (its bounding box), for readers that know only boxes.
    if (o.contains("shape")) {
        const PoseShapeParse shape = parsePoseShape(text(o.value("shape"), path / "shape"));
        if (!shape.shape) fail(path / "shape", QString::fromStdString(shape.error));
        pose.shape = *shape.shape;
        if (pose.mins != -boundingHalfExtents(pose.shape) || pose.maxs != boundingHalfExtents(pose.shape))
            fail(path, "a round pose's mins and maxs must be its shape's bounding box");
    }
    if (!pose.isValid()) fail(path, "must have a name and mins <= maxs");
    return pose;
}

TestRay rayFrom(const QJsonValue& v, const FieldPath& path) {
    const QJsonObject o = object(v, path);
    TestRay ray;
    if (o.contains("name")) ray.name = text(o.value("name"), path / "name");
    ray.from = vec3(member(o, path / "from"), path / "from");
    ray.to = vec3(member(o, path / "to"), path / "to");
    if (o.contains("walk")) ray.walk = boolean(o.value("walk"), path / "walk");
    if (o.contains("path")) ray.path = boolean(o.value("path"), path / "path");
    return ray;
}

std::vector<std::string> textsFrom(const QJsonObject& o, const FieldPath& path) {
    std::vector<std::string> texts;
    forEachIn(o, path, [&](const QJsonValue& v, const FieldPath& p) { texts.push_back(text(v, p)); });
    return texts;
}

ViewState viewFrom(const QJsonValue& v, const FieldPath& path) {
    const QJsonObject o = object(v, path);
    ViewState view;
    if (o.contains("pose")) view.pose = text(o.value("pose"), path / "pose");
    view.overlays = textsFrom(o, path / "overlays");
    if (o.contains("cells")) view.cells = text(o.value("cells"), path / "cells");
    if (o.contains("cellsByBitset")) view.cellsByBitset = boolean(o.value("cellsByBitset"), path / "cellsByBitset");
    if (o.contains("greyUnreachable")) view.greyUnreachable = boolean(o.value("greyUnreachable"), path / "greyUnreachable");
    view.hiddenEntities = textsFrom(o, path / "hiddenEntities");
    if (o.contains("movers")) view.movers = text(o.value("movers"), path / "movers");
    if (o.contains("moverSeconds")) view.moverSeconds = number(o.value("moverSeconds"), path / "moverSeconds");
    if (o.contains("moverSwept")) view.moverSwept = boolean(o.value("moverSwept"), path / "moverSwept");
    return view;
}

QJsonObject viewJson(const ViewState& view) {
    QJsonObject o{{"pose", textJson(view.pose)}, {"overlays", textsJson(view.overlays)}, {"cells", textJson(view.cells)}};
    if (view.cellsByBitset) o["cellsByBitset"] = true;
    if (view.greyUnreachable) o["greyUnreachable"] = true;
    if (!view.hiddenEntities.empty()) o["hiddenEntities"] = textsJson(view.hiddenEntities);
    const ViewState defaults;
    if (view.movers != defaults.movers) o["movers"] = textJson(view.movers);
    if (view.moverSeconds != defaults.moverSeconds) o["moverSeconds"] = view.moverSeconds;
    if (view.moverSwept != defaults.moverSwept) o["moverSwept"] = view.moverSwept;
    return o;
}

DocumentData documentFrom(const QJsonObject& root) {
    DocumentData doc;
    const FieldPath top;
    if (root.contains("bounds")) {
        const FieldPath bp = top / "bounds";
        const QJsonObject b = object(root.value("bounds"), bp);
        doc.world.bounds.mins = vec3(member(b, bp / "mins"), bp / "mins");
        doc.world.bounds.maxs = vec3(member(b, bp / "maxs"), bp / "maxs");
    }
    doc.world.poses.clear();
    forEachIn(root, top / "poses", [&](const QJsonValue& v, const FieldPath& p) { doc.world.poses.push_back(poseFrom(v, p)); });
    if (doc.world.poses.size() > size_t(kMaxPoses)) fail(top / "poses", QString("must hold at most %1 poses").arg(kMaxPoses));
    doc.world.brushes = brushesFrom(root, top / "brushes");
    doc.worldKeys = keysFrom(root, top / "worldKeys");
    forEachIn(root, top / "entities", [&](const QJsonValue& v, const FieldPath& p) {
        const QJsonObject o = object(v, p);
        MapEntity& e = doc.entities.emplace_back();
        e.keys = keysFrom(o, p / "keys");
        e.brushes = brushesFrom(o, p / "brushes");
        if (o.contains("line")) e.line = integer(o.value("line"), p / "line");
        forEachIn(o, p / "patches", [&](const QJsonValue& t, const FieldPath& tp) { e.patches.push_back(text(t, tp)); });
    });
    forEachIn(root, top / "worldPatches",
              [&](const QJsonValue& t, const FieldPath& tp) { doc.worldPatches.push_back(text(t, tp)); });
    if (root.contains("game")) {
        const std::optional<Game> game = parseGame(text(root.value("game"), top / "game"));
        if (!game) fail(top / "game", "must be \"quake\", \"quake2\", \"halflife\" or \"quake3\"");
        doc.game = *game;
    }
    if (root.contains("quake3Brushes")) doc.quake3Brushes = boolean(root.value("quake3Brushes"), top / "quake3Brushes");
    forEachIn(root, top / "rays", [&](const QJsonValue& v, const FieldPath& p) { doc.rays.push_back(rayFrom(v, p)); });
    if (root.contains("camera")) {
        const FieldPath cp = top / "camera";
        const QJsonObject c = object(root.value("camera"), cp);
        doc.camera.position = vec3(member(c, cp / "position"), cp / "position");
        doc.camera.yawDegrees = number(member(c, cp / "yaw"), cp / "yaw");
        doc.camera.pitchDegrees = number(member(c, cp / "pitch"), cp / "pitch");
    }
    if (root.contains("workingPoint")) doc.workingPoint = vec3(root.value("workingPoint"), top / "workingPoint");
    if (root.contains("entityDefinitions")) {
        const FieldPath dp = top / "entityDefinitions";
        const QJsonObject d = object(root.value("entityDefinitions"), dp);
        doc.entityDefinitionsPath = text(member(d, dp / "path"), dp / "path");
        doc.entityDefinitions = text(member(d, dp / "text"), dp / "text");
    }
    if (root.contains("grid")) {
        const int grid = integer(root.value("grid"), top / "grid", 1);
        if (grid > 256 || (grid & (grid - 1)) != 0) fail(top / "grid", "must be a power of two from 1 to 256");
        doc.gridSize = grid;
    }
    if (root.contains("view")) doc.view = viewFrom(root.value("view"), top / "view");
    if (root.contains("viewWeightLimit")) doc.viewWeightLimit = uint32_t(integer(root.value("viewWeightLimit"), top / "viewWeightLimit", 1));
    if (root.contains("darkLimit")) {
        doc.darkLimit = integer(root.value("darkLimit"), top / "darkLimit", 1);
        if (doc.darkLimit > 255) fail(top / "darkLimit", "must be a light level from 1 to 255");
    }
    if (root.contains("lightBounces")) {
        doc.lightBounces = integer(root.value("lightBounces"), top / "lightBounces", 0);
        if (doc.lightBounces > kMaxEditorLightBounces)
            fail(top / "lightBounces", QString("must be from 0 to %1").arg(kMaxEditorLightBounces));
    }
    return doc;
}

// Schema migrations: kMigrations[v - kOldestDocumentSchemaVersion] upgrades a document.json
// object from schema v to v + 1. Version 1 is the first schema, so there are none yet;
// schema 2 adds kOldestDocumentSchemaVersion's function here and bumps the versions.
using Migration = QJsonObject (*)(const QJsonObject&);
constexpr std::array<Migration, kDocumentSchemaVersion - kOldestDocumentSchemaVersion> kMigrations{};

} // namespace

QJsonObject documentToJson(const DocumentData& doc, const std::string& treeInputHash) {
    const World& w = doc.world;
    QJsonArray poses;
    for (const Pose& p : w.poses) {
        QJsonObject o{{"name", textJson(p.name)}, {"mins", vecJson(p.mins)}, {"maxs", vecJson(p.maxs)},
                      {"colour", colourJson(p.colour)}};
        if (p.blocking) o["blocking"] = QString::fromStdString(contentsName(*p.blocking));
        if (p.shape.isRound()) o["shape"] = QString::fromStdString(poseShapeText(p.shape));
        if (const std::string nav = navSettingsFields(p.nav); !nav.empty()) o["nav"] = QString::fromStdString(nav);
        poses.append(o);
    }
    QJsonArray entities;
    for (const MapEntity& e : doc.entities) {
        QJsonObject o{{"keys", keysJson(e.keys)}};
        if (!e.brushes.empty()) o["brushes"] = brushesJson(e.brushes);
        if (e.line != 0) o["line"] = e.line;
        if (!e.patches.empty()) o["patches"] = textsJson(e.patches);
        entities.append(o);
    }
    QJsonArray rays;
    for (const TestRay& r : doc.rays) {
        QJsonObject o{{"name", textJson(r.name)}, {"from", vecJson(r.from)}, {"to", vecJson(r.to)}, {"walk", r.walk}};
        if (r.path) o["path"] = true;
        rays.append(o);
    }
    QJsonObject root{
        {"format", kDocumentFormatName},
        {"version", kDocumentSchemaVersion},
        {"bounds", QJsonObject{{"mins", vecJson(w.bounds.mins)}, {"maxs", vecJson(w.bounds.maxs)}}},
        {"poses", poses},
        {"brushes", brushesJson(w.brushes)},
        {"worldKeys", keysJson(doc.worldKeys)},
        {"entities", entities},
        {"rays", rays},
        {"camera", QJsonObject{{"position", vecJson(doc.camera.position)},
                               {"yaw", doc.camera.yawDegrees},
                               {"pitch", doc.camera.pitchDegrees}}},
        {"grid", doc.gridSize},
    };
    if (doc.workingPoint) root["workingPoint"] = vecJson(*doc.workingPoint);
    if (doc.view) root["view"] = viewJson(*doc.view);
    if (doc.viewWeightLimit != kDefaultViewWeightLimit) root["viewWeightLimit"] = qint64(doc.viewWeightLimit);
    if (doc.darkLimit != kDefaultDarkLimit) root["darkLimit"] = doc.darkLimit;
    if (doc.lightBounces != 0) root["lightBounces"] = doc.lightBounces;
    if (doc.game != Game::Quake) root["game"] = gameName(doc.game);
    if (doc.quake3Brushes) root["quake3Brushes"] = true;
    if (!doc.worldPatches.empty()) root["worldPatches"] = textsJson(doc.worldPatches);
    if (!doc.entityDefinitions.empty())
        root["entityDefinitions"] = QJsonObject{{"path", textJson(doc.entityDefinitionsPath)},
                                                {"text", textJson(doc.entityDefinitions)}};
    if (!treeInputHash.empty())
        root["tree"] = QJsonObject{{"entry", "tree.obsp"}, {"inputHash", QString::fromStdString(treeInputHash)}};
    return root;
}

std::optional<DocumentData> documentFromJson(const QJsonObject& input, std::string& treeInputHash, QString& error) {
    treeInputHash.clear();
    try {
        const FieldPath top;
        if (input.value("format").toString() != kDocumentFormatName)
            fail(top / "format", QString("must be \"%1\": this is not a Shallot document").arg(kDocumentFormatName));
        const int version = integer(member(input, top / "version"), top / "version");
        if (version > kDocumentSchemaVersion)
            throw FieldError{QString("schema version %1 is newer than this Shallot reads (up to %2): open it with a "
                                     "newer Shallot")
                                 .arg(version)
                                 .arg(kDocumentSchemaVersion)};
        if (version < kOldestDocumentSchemaVersion)
            throw FieldError{QString("schema version %1 is older than any this Shallot reads (from %2)")
                                 .arg(version)
                                 .arg(kOldestDocumentSchemaVersion)};
        QJsonObject root = input;
        for (int v = version; v < kDocumentSchemaVersion; ++v) root = kMigrations[size_t(v - kOldestDocumentSchemaVersion)](root);
        DocumentData doc = documentFrom(root);
        if (root.contains("tree")) {
            const FieldPath tp = top / "tree";
            const QJsonObject tree = object(root.value("tree"), tp);
            if (member(tree, tp / "entry").toString() != "tree.obsp") fail(tp / "entry", "must be \"tree.obsp\"");
            treeInputHash = text(member(tree, tp / "inputHash"), tp / "inputHash");
        }
        return doc;
    } catch (const FieldError& e) {
        error = e.message;
        return std::nullopt;
    }
}

} // namespace shallot
