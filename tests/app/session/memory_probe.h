#pragma once
// The process's resident set size, from /proc/self/status (Linux).
#include <QFile>

namespace shallot {

// VmRSS in kB, or -1 when it cannot be read.
inline long residentKb() {
    QFile status("/proc/self/status");
    if (!status.open(QIODevice::ReadOnly)) return -1;
    // readAll: /proc files have no size, so QFile::atEnd() is true from the start.
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

} // namespace shallot
