#include "document/script_player.h"

#include "document/edit_script.h"
#include "main_window.h"

namespace shallot {

ScriptPlayer::ScriptPlayer(MainWindow& window, std::vector<QJsonObject> ops, int intervalMs, QObject* parent)
    : QObject(parent), window_(window), ops_(std::move(ops)) {
    timer_.setInterval(intervalMs);
    connect(&timer_, &QTimer::timeout, this, &ScriptPlayer::step);
}

void ScriptPlayer::step() {
    if (next_ == ops_.size()) {
        timer_.stop();
        emit finished(QString());
        return;
    }
    const QJsonObject& op = ops_[next_++];
    QString error;
    bool ok = true;
    if (op["op"] == "save") ok = window_.saveTo(op["path"].toString());
    else if (op["op"] == "reopen") ok = window_.openFile(op["path"].toString());
    else ok = applyEditOp(window_.editor().document(), op, error);
    if (!ok) {
        timer_.stop();
        emit finished(error.isEmpty() ? window_.lastError() : error);
    }
}

} // namespace shallot
