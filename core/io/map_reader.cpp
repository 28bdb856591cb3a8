#include "io/map_reader.h"

#include "io/game_contents.h"
#include "io/patch_mesh.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <algorithm>
#include <fstream>

namespace shallot {

std::string MapError::format() const {
    if (line <= 0) return file + ": " + message;
    return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
}

namespace {

struct Pos {
    int line;
    int column;
};

// Thrown inside the parser only; readMap turns it into a MapError.
struct ParseFailure {
    Pos pos;
    std::string message;
};

bool isStructural(char c) {
    return c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == '"';
}

// Any control byte or space separates tokens, as in Quake's own parser; NUL does not
// (it is reported as an unexpected character).
bool isSpace(char c) { return c != '\0' && static_cast<unsigned char>(c) <= ' '; }

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

// The NAME of a "// Game: NAME" line among the comments the file starts with.
std::string headerGame(std::string_view text) {
    constexpr std::string_view tag = "// Game: ";
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, end - pos);
        while (!line.empty() && isSpace(line.back())) line.remove_suffix(1);
        if (line.starts_with(tag)) return std::string(line.substr(tag.size()));
        if (!line.empty() && !line.starts_with("//") && line != "\xEF\xBB\xBF") return {};
        pos = end + 1;
    }
    return {};
}

// Three integers within 32 bits: Quake 2's and Quake 3's CONTENTS FLAGS VALUE.
std::optional<BrushSide::SurfaceFlags> surfaceFlags(const std::vector<double>& extra) {
    if (extra.size() != 3) return std::nullopt;
    for (const double v : extra)
        if (std::trunc(v) != v || v < -2147483648.0 || v > 4294967295.0) return std::nullopt;
    const auto bits = [](double v) { return uint32_t(int64_t(v)); };
    return BrushSide::SurfaceFlags{bits(extra[0]), bits(extra[1]), int32_t(bits(extra[2]))};
}

// Recursive descent over the fixed grammar
//   file := entity*   entity := '{' (key value | brush)* '}'   brush := '{' face* '}'
// Faces are line based: a face and its texture parameters end at the end of their line.
class Parser {
public:
    Parser(std::string_view text, const std::string& file) : s_(text), file_(file) {}

    MapFile parse() {
        map_.file = file_;
        if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = lineStart_ = 3; // UTF-8 byte order mark
        for (;;) {
            skipSpace();
            if (atEnd()) break;
            if (s_[pos_] == '{')
                parseEntity();
            else if (s_[pos_] == '}')
                fail(here(), "unexpected '}' outside an entity");
            else
                fail(here(), "expected '{' to start an entity, found " + found());
        }
        return std::move(map_);
    }

private:
    std::string_view s_;
    const std::string& file_;
    size_t pos_ = 0;
    size_t lineStart_ = 0;
    int line_ = 1;
    MapFile map_;

    bool atEnd() const { return pos_ >= s_.size(); }
    Pos here() const { return {line_, int(pos_ - lineStart_) + 1}; }
    bool atComment() const { return pos_ + 1 < s_.size() && s_[pos_] == '/' && s_[pos_ + 1] == '/'; }
    bool atLineEnd() const { return atEnd() || s_[pos_] == '\n' || s_[pos_] == '\r'; }

    [[noreturn]] void fail(Pos p, std::string message) const { throw ParseFailure{p, std::move(message)}; }

    // Consumes one line break (LF, CRLF or a lone CR) at pos_.
    void consumeNewline() {
        if (s_[pos_] == '\r' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n') ++pos_;
        ++pos_;
        ++line_;
        lineStart_ = pos_;
    }

    void skipComment() {
        while (!atLineEnd()) ++pos_;
    }

    // Skips whitespace, line breaks and comments.
    void skipSpace() {
        while (!atEnd()) {
            const char c = s_[pos_];
            if (c == '\n' || c == '\r')
                consumeNewline();
            else if (isSpace(c))
                ++pos_;
            else if (atComment())
                skipComment();
            else
                break;
        }
    }

    // Skips whitespace and a trailing comment within the current line; true at its end.
    bool skipLineSpace() {
        while (!atLineEnd()) {
            if (isSpace(s_[pos_]))
                ++pos_;
            else if (atComment())
                skipComment();
            else
                return false;
        }
        return true;
    }

    // A short description of what is at pos_, for messages.
    std::string found() const {
        if (atEnd()) return "end of file";
        if (atLineEnd() || atComment()) return "end of line";
        if (isStructural(s_[pos_])) return std::string("'") + s_[pos_] + "'";
        size_t end = pos_;
        while (end < s_.size() && !isSpace(s_[end]) && !isStructural(s_[end]) && end - pos_ < 32) ++end;
        if (end == pos_) ++end; // NUL
        std::string text;
        for (size_t i = pos_; i < end; ++i) {
            const auto c = static_cast<unsigned char>(s_[i]);
            if (c < ' ' || c >= 0x7f) {
                static const char hex[] = "0123456789abcdef";
                text += "\\x";
                text += hex[c >> 4];
                text += hex[c & 15];
            } else {
                text += char(c);
            }
        }
        return "'" + text + (end - pos_ >= 32 ? "...'" : "'");
    }

    void checkTokenLength(size_t start, Pos p, const char* what) const {
        if (pos_ - start > kMaxMapTokenBytes)
            fail(p, std::string(what) + " is longer than " + std::to_string(kMaxMapTokenBytes) + " bytes");
    }

    // A "..." string at pos_. No escapes; it must end on its line.
    std::string readQuoted() {
        const Pos open = here();
        const size_t start = ++pos_;
        while (!atLineEnd() && s_[pos_] != '"') ++pos_;
        checkTokenLength(start, open, "string");
        if (atLineEnd()) fail(open, "unterminated string: no closing '\"' on this line");
        return std::string(s_.substr(start, pos_++ - start));
    }

    // Within a face: the next character on this line must be `c`.
    void expectOnLine(char c) {
        skipLineSpace();
        if (atEnd() || s_[pos_] != c) fail(here(), std::string("expected '") + c + "', found " + found());
        ++pos_;
    }

    // Within a face: a finite decimal number on this line.
    double readNumber() {
        skipLineSpace();
        const Pos p = here();
        const size_t start = pos_;
        while (!atEnd() && !isSpace(s_[pos_]) && !isStructural(s_[pos_]) && s_[pos_] != '\0' && !atComment())
            ++pos_;
        checkTokenLength(start, p, "number");
        std::string_view token = s_.substr(start, pos_ - start);
        if (token.empty()) fail(p, "expected number, found " + found());
        std::string_view body = token;
        if (body[0] == '+') body.remove_prefix(1); // from_chars does not take '+'
        const char first = body.empty() ? '\0' : body[0];
        const bool numeric = (first >= '0' && first <= '9') || first == '.' || (first == '-' && token[0] != '+');
        const auto quoted = [&] { return "'" + std::string(token.substr(0, 64)) + (token.size() > 64 ? "...'" : "'"); };
        if (!numeric) {
            std::string_view word = body.substr(first == '-' ? 1 : 0, 3);
            if (equalsNoCase(word, "nan") || equalsNoCase(word, "inf")) fail(p, "not a finite number: " + quoted());
            pos_ = start;
            fail(p, "expected number, found " + found());
        }
        double value = 0.0;
        const auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), value);
        if (ec == std::errc::result_out_of_range) fail(p, "number out of range: " + quoted());
        if (ec != std::errc() || end != body.data() + body.size()) fail(p, "invalid number " + quoted());
        if (!std::isfinite(value)) fail(p, "not a finite number: " + quoted()); // "-inf", "-nan"
        return value;
    }

    Vec3 readPoint() {
        expectOnLine('(');
        Vec3 v;
        for (int i = 0; i < 3; ++i) v[i] = readNumber();
        expectOnLine(')');
        return v;
    }

    std::string readTexture() {
        skipLineSpace();
        const Pos p = here();
        if (atLineEnd()) fail(p, "expected texture name, found " + found());
        const char c = s_[pos_];
        std::string name;
        if (c == '"') {
            name = readQuoted();
        } else {
            // '{' is allowed: it starts Quake's alpha-masked (fence) texture names.
            if (c == '(' || c == ')' || c == '[' || c == ']' || c == '}' || c == '\0')
                fail(p, "expected texture name, found " + found());
            const size_t start = pos_;
            while (!atEnd() && !isSpace(s_[pos_]) && s_[pos_] != '\0') ++pos_;
            checkTokenLength(start, p, "texture name");
            name = std::string(s_.substr(start, pos_ - start));
        }
        if (name.empty()) fail(p, "empty texture name");
        return name;
    }

    // Quake 2 / Hexen 2 style extra fields (contents, flags, value...): numbers to the line
    // end (or to a brace or the next face, so a brush written on one line still reads).
    // The face's text from `paramStart` on is kept verbatim as its texture parameters.
    void readExtraFields(BrushSide& side, size_t paramStart) {
        size_t paramEnd = pos_;
        std::vector<double> extra;
        while (!skipLineSpace() && s_[pos_] != '(' && s_[pos_] != '{' && s_[pos_] != '}') {
            extra.push_back(readNumber());
            paramEnd = pos_;
        }
        side.surface = surfaceFlags(extra);
        side.textureParams = std::string(s_.substr(paramStart, paramEnd - paramStart));
    }

    // A side's plane from its points, or a warning and false when they are collinear.
    bool setPlane(BrushSide& side, const Brush& brush, Pos start) {
        const auto plane = Plane::fromPoints(side.points[0], side.points[1], side.points[2]);
        if (!plane) {
            const std::string where = file_ + ":" + std::to_string(start.line) + ":" + std::to_string(start.column);
            map_.warnings.push_back({start.line, start.column,
                                     where + ": face points are collinear; side dropped (brush " +
                                         std::to_string(brush.source.brush) + " of entity " +
                                         std::to_string(brush.source.entity) + ")"});
            return false;
        }
        side.plane = *plane;
        return true;
    }

    // Quake 3 brushDef face: ( p ) ( p ) ( p ) ( ( a b c ) ( d e f ) ) SHADER CONTENTS FLAGS VALUE
    void parseBrushDefFace(Brush& brush) {
        const Pos start = here();
        BrushSide side;
        side.line = start.line;
        for (int i = 0; i < 3; ++i) side.points[static_cast<size_t>(i)] = readPoint();
        side.hasPoints = true;
        skipLineSpace();
        const size_t matrixStart = pos_;
        expectOnLine('(');
        for (int row = 0; row < 2; ++row) readPoint();
        expectOnLine(')');
        side.textureMatrix = std::string(s_.substr(matrixStart, pos_ - matrixStart));
        side.texture = readTexture();
        skipLineSpace();
        readExtraFields(side, pos_);
        if (setPlane(side, brush, start)) brush.sides.push_back(std::move(side));
    }

    // The word after a primitive's '{' (brushDef, patchDef2...), or "" when a face follows.
    std::string primitiveWord() {
        skipSpace();
        const size_t start = pos_;
        while (!atEnd() && ((s_[pos_] >= 'a' && s_[pos_] <= 'z') || (s_[pos_] >= 'A' && s_[pos_] <= 'Z') ||
                            (s_[pos_] >= '0' && s_[pos_] <= '9')))
            ++pos_;
        return std::string(s_.substr(start, pos_ - start));
    }

    // A patch (patchDef2...) from its outer '{' at `open`: kept verbatim, to its matching '}'.
    void skipPatch(MapEntity& entity, size_t openAt, Pos open) {
        int depth = 1;
        while (depth > 0) {
            if (atEnd()) fail(open, "patch is not closed: end of file before its '}'");
            const char c = s_[pos_];
            if (c == '\n' || c == '\r') {
                consumeNewline();
                continue;
            }
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            ++pos_;
        }
        entity.patches.emplace_back(s_.substr(openAt, pos_ - openAt));
        // Kept whatever it holds, but a patch the editor cannot draw is named where it fails.
        const PatchParseResult parsed = parsePatchDef(entity.patches.back());
        if (!parsed.ok()) {
            const int line = open.line + parsed.error.line - 1;
            const int column = parsed.error.line == 1 ? open.column + parsed.error.column - 1 : parsed.error.column;
            map_.warnings.push_back({line, column,
                                     file_ + ":" + std::to_string(line) + ":" + std::to_string(column) +
                                         ": malformed patch, kept but not drawn: " + parsed.error.message});
        }
    }

    void parseFace(Brush& brush) {
        const Pos start = here();
        BrushSide side;
        side.line = start.line;
        for (int i = 0; i < 3; ++i) side.points[static_cast<size_t>(i)] = readPoint();
        side.hasPoints = true;
        side.texture = readTexture();

        if (skipLineSpace()) fail(here(), "expected texture parameters after '" + side.texture + "', found " + found());
        const size_t paramStart = pos_;
        if (s_[pos_] == '[') { // Valve 220: [ ux uy uz uoff ] [ vx vy vz voff ] rot xscale yscale
            map_.valve220 = true;
            for (int axis = 0; axis < 2; ++axis) {
                expectOnLine('[');
                for (int i = 0; i < 4; ++i) readNumber();
                expectOnLine(']');
            }
            for (int i = 0; i < 3; ++i) readNumber();
        } else { // standard: xoff yoff rot xscale yscale
            for (int i = 0; i < 5; ++i) readNumber();
        }
        readExtraFields(side, paramStart);

        if (setPlane(side, brush, start)) brush.sides.push_back(std::move(side));
    }

    // Faces up to the brush's '}' (`open`: where the brush began, for messages).
    void parseFaces(Brush& brush, Pos open, bool brushDef) {
        size_t faces = 0;
        for (;;) {
            skipSpace();
            if (atEnd()) fail(open, "brush is not closed: end of file before its '}'");
            const char c = s_[pos_];
            if (c == '}') {
                ++pos_;
                return;
            }
            if (c == '(') {
                if (++faces > kMaxBrushSides)
                    fail(here(), "brush has more than " + std::to_string(kMaxBrushSides) + " sides");
                if (brushDef) parseBrushDefFace(brush);
                else parseFace(brush);
            } else if (c == '{') {
                fail(here(), "unexpected '{' inside a brush (only entity { brush { } } nesting is allowed)");
            } else {
                fail(here(), "expected '(' to start a face or '}' to end the brush, found " + found());
            }
        }
    }

    // A brush, a Quake 3 "{ brushDef { faces } }" or a patch kept verbatim.
    void parseBrush(MapEntity& entity, int entityIndex) {
        const Pos open = here();
        const size_t openAt = pos_++;
        Brush brush;
        brush.source = {file_, open.line, entityIndex, int(entity.brushes.size())};
        brush.sides.reserve(6);
        skipSpace();
        const Pos wordAt = here();
        const std::string word = primitiveWord();
        if (word.empty()) {
            parseFaces(brush, open, false);
        } else if (word == "brushDef") {
            map_.quake3Brushes = true;
            skipSpace();
            if (atEnd() || s_[pos_] != '{') fail(here(), "expected '{' after brushDef, found " + found());
            ++pos_;
            parseFaces(brush, open, true);
            skipSpace();
            if (atEnd() || s_[pos_] != '}') fail(here(), "expected '}' to end the brushDef's brush, found " + found());
            ++pos_;
        } else if (word.starts_with("patchDef")) {
            skipPatch(entity, openAt, open);
            return;
        } else {
            fail(wordAt, "unknown primitive '" + word + "' (brushes, brushDef and patchDef2 are read)");
        }
        entity.brushes.push_back(std::move(brush));
    }

    void parseEntity() {
        const Pos open = here();
        ++pos_;
        const int index = int(map_.entities.size());
        map_.entities.emplace_back();
        MapEntity& entity = map_.entities.back();
        entity.line = open.line;
        for (;;) {
            skipSpace();
            if (atEnd()) fail(open, "entity is not closed: end of file before its '}'");
            const char c = s_[pos_];
            if (c == '}') {
                ++pos_;
                break;
            }
            if (c == '{') {
                parseBrush(entity, index);
            } else if (c == '"') {
                std::string key = readQuoted();
                skipSpace();
                if (atEnd() || s_[pos_] != '"')
                    fail(here(), "expected a quoted value for key '" + key + "', found " + found());
                entity.keys.emplace_back(std::move(key), readQuoted());
            } else {
                fail(here(), "expected a quoted key, '{' or '}' in entity, found " + found());
            }
        }
        const std::string* version = entity.value("mapversion");
        if (version && *version == "220" && entity.classname() == "worldspawn") map_.valve220 = true;
    }
};

} // namespace

MapReadResult readMap(std::string_view text, const std::string& fileName, std::optional<Game> game) {
    MapReadResult result;
    try {
        result.map = Parser(text, fileName).parse();
    } catch (const ParseFailure& f) {
        result.error = {fileName, f.pos.line, f.pos.column, f.message};
        return result;
    }
    MapFile& map = *result.map;
    map.headerGame = headerGame(text);
    map.game = game ? *game : detectGame(map);
    size_t patches = 0;
    for (MapEntity& entity : map.entities) {
        patches += entity.patches.size();
        for (Brush& brush : entity.brushes) brush.contents = brushContents(map.game, brush);
    }
    if (patches > 0)
        map.warnings.push_back({0, 0, fileName + ": " + std::to_string(patches) +
                                          " patches (patchDef) kept and written back, but left out of collision"});
    return result;
}

MapReadResult readMapFile(const std::string& path, std::optional<Game> game) {
    MapReadResult result;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        result.error = {path, 0, 0, std::string("cannot open: ") + std::strerror(errno)};
        return result;
    }
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0, std::ios::beg);
    if (size < 0 || static_cast<unsigned long long>(size) > kMaxMapFileBytes) {
        result.error = {path, 0, 0, size < 0 ? "cannot determine the file size"
                                             : "file is larger than " + std::to_string(kMaxMapFileBytes) + " bytes"};
        return result;
    }
    std::string text(static_cast<size_t>(size), '\0');
    if (!in.read(text.data(), size)) {
        result.error = {path, 0, 0, "read error"};
        return result;
    }
    return readMap(text, path, game);
}

} // namespace shallot
