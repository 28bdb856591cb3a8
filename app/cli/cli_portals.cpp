// shallot-cli portals: a tree's portals open for one pose, as Quake's PRT1 text or JSON.
#include "cli_common.h"
#include "tree_source.h"


#include <QJsonDocument>
#include <charconv>
#include <fstream>
#include <iostream>

namespace shallot::cli {

namespace {

// The shortest text that reads back as the same double.
std::string number(double d) {
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, d).ptr;
    return std::string(buf, end);
}

// PRT1: "PRT1", the leaf count, the portal count, then per portal "<points> <leaf> <leaf>
// (x y z) ...". Quake's tools wind a polygon clockwise seen from the front of its plane
// and list the front leaf first; Shallot winds counter-clockwise, so the points are
// written in reverse.
void writePrt(const BspTree& tree, const std::vector<const Portal*>& open, std::ostream& out) {
    out << "PRT1\n" << tree.leafCount() << "\n" << open.size() << "\n";
    for (const Portal* p : open) {
        const std::span<const Vec3> v = tree.portals.vertices(*p);
        out << v.size() << " " << p->front << " " << p->back;
        for (auto it = v.rbegin(); it != v.rend(); ++it)
            out << " (" << number(it->x()) << " " << number(it->y()) << " " << number(it->z()) << ")";
        out << "\n";
    }
}

QJsonObject portalsJson(const BspTree& tree, int pose, const std::vector<const Portal*>& open) {
    QJsonArray portals;
    for (const Portal* p : open) {
        QJsonArray vertices, poses;
        for (const Vec3& v : tree.portals.vertices(*p)) vertices.append(toJson(v));
        for (size_t i = 0; i < tree.poses.size(); ++i)
            if ((p->poses >> i) & 1u) poses.append(QString::fromStdString(tree.poses[i].name));
        portals.append(QJsonObject{
            {"front", p->front}, {"back", p->back}, {"plane", p->plane}, {"poses", poses}, {"vertices", vertices}});
    }
    return QJsonObject{{"pose", QString::fromStdString(tree.poses[size_t(pose)].name)},
                       {"leaves", qint64(tree.leafCount())},
                       {"portals", portals}};
}

} // namespace

int runPortals(const std::vector<std::string>& args) {
    std::string input, output, poseName, format = "prt";
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == "-o" && hasValue) output = args[++i];
        else if (a == "--pose" && hasValue) poseName = args[++i];
        else if (a == "--format" && hasValue) format = args[++i];
        else if (!a.empty() && a[0] != '-' && input.empty()) input = a;
        else {
            printError("portals: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    if (input.empty() || poseName.empty() || (format != "prt" && format != "json")) {
        printError("portals: usage: portals TREE.obsp --pose NAME [-o FILE] [--format prt|json]");
        return kExitUsage;
    }
    int exitCode = kExitOk;
    std::optional<TreeAndPose> loaded = loadTreeForPose(input, poseName, "portals", exitCode);
    if (!loaded) return exitCode;
    const BspTree& tree = loaded->tree;
    const int pose = loaded->pose;
    std::vector<const Portal*> open;
    for (const Portal& p : tree.portals)
        if ((p.poses >> pose) & 1u) open.push_back(&p);

    std::ofstream file;
    if (!output.empty()) {
        file.open(output, std::ios::trunc);
        if (!file) {
            printError("portals: cannot open '" + output + "' for writing");
            return kExitInputError;
        }
    }
    std::ostream& out = output.empty() ? std::cout : file;
    if (format == "prt") writePrt(tree, open, out);
    else {
        const QByteArray json = QJsonDocument(portalsJson(tree, pose, open)).toJson(QJsonDocument::Compact);
        out.write(json.constData(), std::streamsize(json.size())) << "\n";
    }
    out.flush();
    if (!out) {
        printError("portals: failed writing " + (output.empty() ? std::string("stdout") : "'" + output + "'"));
        return kExitInputError;
    }
    return kExitOk;
}

} // namespace shallot::cli
