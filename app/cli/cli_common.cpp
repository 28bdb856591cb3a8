#include "cli_common.h"
#include "document_input.h"
#include "game_option.h"
#include "tree_source.h"

#include "io/map_reader.h"
#include "io/map_to_world.h"

#include <QJsonDocument>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace shallot::cli {

std::optional<LoadedWorld> loadWorld(const std::string& path) {
    const auto start = std::chrono::steady_clock::now();
    if (hasExtension(path, ".shallot")) {
        std::string error;
        std::optional<DocumentInput> document = readDocumentInput(path, error);
        if (!document) {
            std::cerr << error << "\n";
            return std::nullopt;
        }
        LoadedWorld out{std::move(document->world)};
        out.game = document->game;
        out.entities = std::move(document->entities);
        out.parseMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return out;
    }
    MapReadResult read = readMapFile(path, mapGameOption());
    if (!read.ok()) {
        std::cerr << read.error.format() << "\n";
        return std::nullopt;
    }
    // A warning's message starts with its place ("file:line:column: ", or "file: " for the
    // whole file): "warning:" goes after it, as compilers print.
    for (const MapWarning& w : read.map->warnings) {
        const std::string place = w.line > 0 ? path + ":" + std::to_string(w.line) + ":" + std::to_string(w.column) + ": "
                                             : path + ": ";
        if (w.message.starts_with(place)) std::cerr << place << "warning: " << w.message.substr(place.size()) << "\n";
        else std::cerr << "warning: " << w.message << "\n";
    }
    LoadedWorld out;
    std::vector<std::string> warnings;
    out.world = worldFromMap(*read.map, {}, &warnings);
    out.game = read.map->game;
    out.entities = std::move(read.map->entities);
    for (const std::string& w : warnings) std::cerr << "warning: " << w << "\n";
    out.parseMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
}

bool parseLookaheadOption(const std::vector<std::string>& args, size_t& i, SplitterParams& splitter) {
    if (i + 1 >= args.size()) return false;
    if (args[i] == "--lookahead-below")
        splitter.lookaheadBelow = size_t(std::max(0, std::atoi(args[++i].c_str())));
    else if (args[i] == "--lookahead-candidates")
        splitter.lookaheadCandidates = size_t(std::max(1, std::atoi(args[++i].c_str())));
    else
        return false;
    return true;
}

namespace {

// "NAME=ellipsoid:R,H[:CONTENTS+...]" or "NAME=capsule:R,HEIGHT[:CONTENTS+...]".
std::optional<Pose> parseRoundPoseArgument(const std::string& name, const std::string& value, std::string& error) {
    const size_t kindEnd = value.find(':');
    const size_t numbersEnd = kindEnd == std::string::npos ? std::string::npos : value.find(':', kindEnd + 1);
    const PoseShapeParse shape = parsePoseShape(value.substr(0, numbersEnd));
    if (!shape.shape) {
        error = "pose '" + name + "': " + shape.error;
        return std::nullopt;
    }
    Pose pose = Pose::round(name, *shape.shape);
    if (numbersEnd != std::string::npos) {
        pose.blocking = parseContents(value.substr(numbersEnd + 1));
        if (!pose.blocking) {
            error = "pose '" + name + "': the blocking set after the shape's ':' must be contents joined by '+' (" +
                    contentsNameList() + ")";
            return std::nullopt;
        }
    }
    return pose;
}

} // namespace

std::optional<Pose> parsePoseArgument(const std::string& text, std::string& error) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
        error = "pose '" + text + "' must look like NAME=MINX,MINY,MINZ,MAXX,MAXY,MAXZ, NAME=ellipsoid:R,H or "
                "NAME=capsule:R,HEIGHT";
        return std::nullopt;
    }
    Pose pose;
    pose.name = text.substr(0, eq);
    const std::string value = text.substr(eq + 1);
    if (value.starts_with("ellipsoid") || value.starts_with("capsule")) return parseRoundPoseArgument(pose.name, value, error);
    const size_t colon = text.find(':', eq);
    if (colon != std::string::npos) {
        pose.blocking = parseContents(text.substr(colon + 1));
        if (!pose.blocking) {
            error = "pose '" + pose.name + "': the blocking set after ':' must be contents joined by '+' (" +
                    contentsNameList() + ")";
            return std::nullopt;
        }
    }
    std::istringstream in(text.substr(eq + 1, colon == std::string::npos ? std::string::npos : colon - eq - 1));
    double v[6];
    for (int i = 0; i < 6; ++i) {
        if (!(in >> v[i])) {
            error = "pose '" + pose.name + "': expected 6 numbers";
            return std::nullopt;
        }
        if (i < 5 && in.get() != ',') {
            error = "pose '" + pose.name + "': numbers must be separated by commas";
            return std::nullopt;
        }
    }
    if (in.peek() != std::char_traits<char>::eof()) {
        error = "pose '" + pose.name + "': trailing text after 6 numbers";
        return std::nullopt;
    }
    pose.mins = Vec3(v[0], v[1], v[2]);
    pose.maxs = Vec3(v[3], v[4], v[5]);
    if (!pose.isValid()) {
        error = "pose '" + pose.name + "': mins must not exceed maxs and all numbers must be finite";
        return std::nullopt;
    }
    return pose;
}

// Parses "X,Y,Z" (finite numbers).
std::optional<Vec3> parsePoint(const std::string& text) {
    Vec3 p;
    char comma1 = 0, comma2 = 0;
    int used = 0;
    if (std::sscanf(text.c_str(), "%lf %c %lf %c %lf%n", &p[0], &comma1, &p[1], &comma2, &p[2], &used) != 5 ||
        comma1 != ',' || comma2 != ',' || size_t(used) != text.size() || !p.allFinite())
        return std::nullopt;
    return p;
}

QJsonArray toJson(const Vec3& v) { return QJsonArray{v.x(), v.y(), v.z()}; }

void printJsonLine(const QJsonObject& object) {
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fputc('\n', stdout);
}

void printError(const std::string& message) { std::cerr << "shallot-cli: " << message << "\n"; }

QJsonObject statsJson(const CompileResult& r, double parseMs) {
    const CompileStats& s = r.stats;
    QJsonObject polygons, mapTreeNodes;
    for (size_t p = 0; p < r.onion.poses.size(); ++p) {
        const QString name = QString::fromStdString(r.onion.poses[p].name);
        polygons[name] = qint64(s.polygonsPerPose[p]);
        mapTreeNodes[name] = qint64(s.mapTreeNodesPerPose[p]);
    }
    QJsonArray poseNames;
    QJsonObject blocking;
    for (const Pose& p : r.onion.poses) {
        poseNames.append(QString::fromStdString(p.name));
        blocking[QString::fromStdString(p.name)] = QString::fromStdString(contentsName(p.blockingSet()));
    }
    const QJsonObject ms{{"parse", parseMs},          {"validate", s.msValidate}, {"expand", s.msExpand},
                         {"union", s.msUnion},        {"map_trees", s.msMapTrees}, {"onion", s.msOnion},
                         {"portals", s.msPortals},
                         {"solidity", s.msSolidity}, {"total", parseMs + s.msTotal()}};
    return QJsonObject{{"brushes", qint64(s.brushes)},
                       {"valid_brushes", qint64(s.validBrushes)},
                       {"invalid_brushes", qint64(r.problems.size())},
                       {"poses", poseNames},
                       {"blocking", blocking},
                       {"nodes", qint64(s.nodes)},
                       {"leaves", qint64(s.leaves)},
                       {"depth", s.depth},
                       {"polygons", polygons},
                       {"map_tree_nodes", mapTreeNodes},
                       {"splits", qint64(s.splits)},
                       {"degenerate_leaves", qint64(s.degenerateLeaves)},
                       {"portals", qint64(s.portals)},
                       {"bytes", qint64(s.bytes)},
                       {"ms", ms}};
}

} // namespace shallot::cli
