#pragma once
#include "compile/bsp_tree.h"

#include <QByteArray>
#include <QJsonObject>

namespace shallot::cli {

// Answers one JSON query line against a compiled tree (the `query` command's contract):
//   {"op":"classify","p":[x,y,z]} -> {"solid":{"<pose>":bool,...},"leaf":N}
// A line it cannot answer gives {"error":"..."} and ok = false.
class QueryProcessor {
public:
    explicit QueryProcessor(const BspTree& tree) : tree_(tree) {}
    QJsonObject answer(const QByteArray& line, bool& ok) const;

private:
    QJsonObject classify(const QJsonObject& query, bool& ok) const;
    const BspTree& tree_;
};

// Reads "[x,y,z]" with finite numbers; false otherwise.
bool readPoint(const QJsonValue& value, Vec3& out);

} // namespace shallot::cli
