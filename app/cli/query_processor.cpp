#include "query_processor.h"

#include "cli_common.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

namespace shallot::cli {

namespace {

QJsonObject error(const QString& message, bool& ok) {
    ok = false;
    return QJsonObject{{"error", message}};
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

QJsonObject QueryProcessor::answer(const QByteArray& line, bool& ok) const {
    ok = true;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return error("malformed JSON at offset " + QString::number(parseError.offset) + ": " + parseError.errorString(), ok);
    if (!doc.isObject()) return error("a query must be a JSON object", ok);
    const QJsonObject query = doc.object();
    const QString op = query.value("op").toString();
    if (op == "classify") return classify(query, ok);
    if (op.isEmpty()) return error("missing \"op\"", ok);
    return error("unknown op \"" + op + "\"", ok);
}

QJsonObject QueryProcessor::classify(const QJsonObject& query, bool& ok) const {
    Vec3 p;
    if (!readPoint(query.value("p"), p)) return error("\"p\" must be an array of 3 finite numbers", ok);
    const int32_t leaf = tree_.findLeaf(p);
    const uint64_t bits = tree_.leafSolid[size_t(leaf)];
    QJsonObject solid;
    for (size_t i = 0; i < tree_.poses.size(); ++i)
        solid[QString::fromStdString(tree_.poses[i].name)] = bool((bits >> i) & 1u);
    return QJsonObject{{"solid", solid}, {"leaf", leaf}};
}

} // namespace shallot::cli
