// libFuzzer target: the .fgd entity definition reader (core/io/fgd_reader.h). Every message
// must point inside the text, every class must have a usable box and colour, and the classes
// read, written back as a plain .fgd, must read back the same without a warning.
#include "fuzz_support.h"

#include "io/fgd_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

using namespace shallot;

namespace {

int lineCount(std::string_view text) {
    return 1 + int(std::count(text.begin(), text.end(), '\n') + std::count(text.begin(), text.end(), '\r'));
}

void checkMessage(std::string_view text, int line, int column, const std::string& message) {
    SHALLOT_FUZZ_CHECK(line >= 1 && line <= lineCount(text) && column >= 1 && size_t(column) <= text.size() + 1,
                       "message position outside the text: " + message);
    SHALLOT_FUZZ_CHECK(
        fuzz::startsWith(message, "fuzz.fgd:" + std::to_string(line) + ":" + std::to_string(column) + ": "),
        "message not in file:line:column form: " + message);
}

std::string number(double x) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, ec == std::errc() ? end : buffer);
}

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// The classes as a minimal .fgd: no bases, every size and colour given.
std::string written(const EntityClassTable& table) {
    std::string out;
    for (const EntityClass& c : table.classes()) {
        out += c.solidClass ? "@SolidClass" : "@PointClass";
        if (c.hasSize) {
            out += " size(" + number(c.mins.x()) + " " + number(c.mins.y()) + " " + number(c.mins.z()) + ", " +
                   number(c.maxs.x()) + " " + number(c.maxs.y()) + " " + number(c.maxs.z()) + ")";
        }
        out += " color(" + std::to_string(c.colour >> 24) + " " + std::to_string((c.colour >> 16) & 0xff) + " " +
               std::to_string((c.colour >> 8) & 0xff) + ")";
        out += " = " + c.name + " : " + quoted(c.description) + " []\n";
    }
    return out;
}

void checkSame(const EntityClass& a, const EntityClass& b) {
    SHALLOT_FUZZ_CHECK(a.name == b.name, "name changed: " + a.name + " -> " + b.name);
    SHALLOT_FUZZ_CHECK(a.category == b.category && a.motion == b.motion && a.solidClass == b.solidClass,
                       "kind changed: " + a.name);
    SHALLOT_FUZZ_CHECK(a.hasSize == b.hasSize, "size presence changed: " + a.name);
    if (a.hasSize) SHALLOT_FUZZ_CHECK(a.mins == b.mins && a.maxs == b.maxs, "size changed: " + a.name);
    SHALLOT_FUZZ_CHECK(a.colour == b.colour, "colour changed: " + a.name);
    SHALLOT_FUZZ_CHECK(a.description == b.description, "description changed: " + a.name);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    FgdFile f;
    try {
        f = readFgd(text, "fuzz.fgd");
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        // "fuzz.fgd:L:C: ..."
        int line = 0, column = 0;
        const char* p = message.c_str() + 9;
        const char* end = message.c_str() + message.size();
        auto r = std::from_chars(std::min(p, end), end, line);
        if (r.ec == std::errc() && r.ptr < end && *r.ptr == ':') r = std::from_chars(r.ptr + 1, end, column);
        checkMessage(text, line, column, message);
        return 0;
    }
    SHALLOT_FUZZ_CHECK(f.warnings.size() <= kMaxFgdWarnings + 1, "too many warnings kept");
    for (const MapWarning& w : f.warnings) checkMessage(text, w.line, w.column, w.message);
    for (const EntityClass& c : f.classes.classes()) {
        SHALLOT_FUZZ_CHECK(!c.name.empty() && c.name[0] != '@', "a class without a usable name");
        SHALLOT_FUZZ_CHECK((c.colour & 0xff) == 0xff, "a colour that is not opaque: " + c.name);
        if (c.hasSize) {
            SHALLOT_FUZZ_CHECK(c.mins.allFinite() && c.maxs.allFinite(), "a non-finite size: " + c.name);
            SHALLOT_FUZZ_CHECK((c.mins.array() <= c.maxs.array()).all(), "mins above maxs: " + c.name);
            SHALLOT_FUZZ_CHECK(c.mins.cwiseAbs().maxCoeff() <= kMaxFgdCoordinate &&
                                   c.maxs.cwiseAbs().maxCoeff() <= kMaxFgdCoordinate,
                               "a size beyond the limit: " + c.name);
        }
    }
    // Written back and read again: the same classes, no warning.
    const std::string again = written(f.classes);
    FgdFile back;
    try {
        back = readFgd(again, "fuzz.fgd");
    } catch (const std::runtime_error& e) {
        SHALLOT_FUZZ_CHECK(false, std::string("the written classes do not read back: ") + e.what());
    }
    SHALLOT_FUZZ_CHECK(back.warnings.empty(),
                       "the written classes read back with a warning: " + back.warnings.front().message + "\n" +
                           again.substr(0, 2000));
    SHALLOT_FUZZ_CHECK(back.classes.classes().size() == f.classes.classes().size(), "class count changed");
    for (size_t i = 0; i < f.classes.classes().size(); ++i)
        checkSame(f.classes.classes()[i], back.classes.classes()[i]);
    return 0;
}
