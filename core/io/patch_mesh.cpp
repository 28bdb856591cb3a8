#include "io/patch_mesh.h"

#include "world/number_text.h"

#include <algorithm>
#include <charconv>
#include <tuple>
#include <cmath>

namespace shallot {

namespace {

struct Failure {
    PatchError error;
};

// A small tokenizer over one patch's text: braces, parentheses, words; `//` comments and
// white space skipped; every token's line and column kept for messages.
class PatchParser {
public:
    explicit PatchParser(std::string_view s) : s_(s) {}

    PatchDef parse() {
        skip();
        const bool outer = peek() == '{';
        if (outer) take('{', "'{'");
        const auto [word, wordLine, wordColumn] = readWord("patchDef2");
        if (word != "patchDef2" && word != "patchDef3")
            failAt(wordLine, wordColumn, "expected patchDef2, found '" + word + "'");
        const size_t sizeNumbers = word == "patchDef3" ? 7 : 5;
        take('{', "'{' after " + word);
        PatchDef patch;
        patch.shader = std::get<0>(readWord("a shader name"));

        // ( W H 0 0 0 ): the grid's size (and contents, flags, value, unused here).
        take('(', "'(' before the patch's size");
        skip();
        const Pos sizeAt = here();
        std::vector<double> size;
        while (skip(), peek() != ')' && !atEnd()) size.push_back(readNumber());
        take(')', "')' after the patch's size");
        if (size.size() != sizeNumbers)
            failAt(sizeAt.line, sizeAt.column, word + " size needs " + std::to_string(sizeNumbers) + " numbers, found " +
                                                   std::to_string(size.size()));
        for (int i = 0; i < 2; ++i) {
            const double v = size[size_t(i)];
            if (v != std::floor(v) || v < 3 || v > kMaxPatchSide || int(v) % 2 == 0)
                failAt(sizeAt.line, sizeAt.column,
                       std::string("patch ") + (i == 0 ? "width" : "height") + " must be an odd whole number from 3 to " +
                           std::to_string(kMaxPatchSide) + ", found " + numberText(v));
        }
        patch.width = int(size[0]);
        patch.height = int(size[1]);
        patch.points.reserve(size_t(patch.width) * size_t(patch.height));

        take('(', "'(' before the control points");
        for (int w = 0; w < patch.width; ++w) {
            take('(', "'(' starting group " + std::to_string(w + 1) + " of " + std::to_string(patch.width));
            for (int h = 0; h < patch.height; ++h) {
                take('(', "'(' starting point " + std::to_string(h + 1) + " of " + std::to_string(patch.height) + " in group " +
                              std::to_string(w + 1));
                Vec3 p;
                for (int k = 0; k < 5; ++k) {
                    const double v = readNumber();
                    if (k < 3) p[k] = v;
                }
                take(')', "')' after a control point's five numbers (x y z u v)");
                patch.points.push_back(p);
            }
            take(')', "')' ending group " + std::to_string(w + 1) + " (" + std::to_string(patch.height) + " points each)");
        }
        take(')', "')' after " + std::to_string(patch.width) + " groups of control points");
        take('}', "'}' ending the " + word);
        if (outer) take('}', "'}' ending the patch");
        skip();
        if (!atEnd()) fail("unexpected text after the patch: " + found());
        return patch;
    }

private:
    struct Pos {
        int line, column;
    };
    std::string_view s_;
    size_t pos_ = 0;
    int line_ = 1;
    size_t lineStart_ = 0;

    bool atEnd() const { return pos_ >= s_.size(); }
    char peek() const { return atEnd() ? '\0' : s_[pos_]; }
    Pos here() const { return {line_, int(pos_ - lineStart_) + 1}; }

    [[noreturn]] void failAt(int line, int column, std::string message) { throw Failure{{line, column, std::move(message)}}; }
    [[noreturn]] void fail(std::string message) {
        const Pos p = here();
        failAt(p.line, p.column, std::move(message));
    }

    void skip() {
        while (!atEnd()) {
            const char c = s_[pos_];
            if (c == '\n') {
                ++pos_;
                ++line_;
                lineStart_ = pos_;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                ++pos_;
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
                while (!atEnd() && s_[pos_] != '\n') ++pos_;
            } else {
                return;
            }
        }
    }

    static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
    static bool isPunct(char c) { return c == '{' || c == '}' || c == '(' || c == ')'; }

    std::string found() {
        if (atEnd()) return "end of text";
        size_t end = pos_;
        while (end < s_.size() && end - pos_ < 24 && !isSpace(s_[end])) ++end;
        return "'" + std::string(s_.substr(pos_, std::max<size_t>(end - pos_, 1))) + "'";
    }

    void take(char c, const std::string& what) {
        skip();
        if (peek() != c) fail("expected " + what + ", found " + found());
        ++pos_;
    }

    // A word (up to white space or a brace/parenthesis), or a quoted string.
    std::tuple<std::string, int, int> readWord(const std::string& what) {
        skip();
        const Pos at = here();
        if (atEnd() || isPunct(peek())) fail("expected " + what + ", found " + found());
        if (peek() == '"') {
            const size_t start = ++pos_;
            while (!atEnd() && s_[pos_] != '"' && s_[pos_] != '\n') ++pos_;
            if (peek() != '"') failAt(at.line, at.column, "quoted " + what + " is not closed on its line");
            return {std::string(s_.substr(start, pos_++ - start)), at.line, at.column};
        }
        const size_t start = pos_;
        while (!atEnd() && !isSpace(s_[pos_]) && !isPunct(s_[pos_])) ++pos_;
        return {std::string(s_.substr(start, pos_ - start)), at.line, at.column};
    }

    double readNumber() {
        skip();
        const Pos at = here();
        const size_t start = pos_;
        while (!atEnd() && !isSpace(s_[pos_]) && !isPunct(s_[pos_])) ++pos_;
        const std::string_view text = s_.substr(start, pos_ - start);
        if (text.empty()) {
            pos_ = start;
            fail("expected a number, found " + found());
        }
        double v = 0;
        const char* first = text.data() + (text.front() == '+' ? 1 : 0);
        const auto r = std::from_chars(first, text.data() + text.size(), v);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v))
            failAt(at.line, at.column, "expected a finite number, found '" + std::string(text) + "'");
        return v;
    }
};

double b0(double t) { return (1 - t) * (1 - t); }
double b1(double t) { return 2 * t * (1 - t); }
double b2(double t) { return t * t; }

} // namespace

PatchParseResult parsePatchDef(std::string_view text) {
    PatchParseResult result;
    try {
        result.patch = PatchParser(text).parse();
    } catch (const Failure& f) {
        result.error = f.error;
    }
    return result;
}

Vec3 patchPoint(const PatchDef& patch, int sw, int sh, double s, double t) {
    const double bs[3] = {b0(s), b1(s), b2(s)}, bt[3] = {b0(t), b1(t), b2(t)};
    Vec3 p = Vec3::Zero();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) p += bs[i] * bt[j] * patch.at(2 * sw + i, 2 * sh + j);
    return p;
}

PatchMesh tessellatePatch(const PatchDef& patch, int subdivisions) {
    PatchMesh mesh;
    if (patch.width < 3 || patch.height < 3 || patch.points.size() != size_t(patch.width) * size_t(patch.height)) return mesh;
    const int n = std::clamp(subdivisions, 1, 64);
    const int subW = (patch.width - 1) / 2, subH = (patch.height - 1) / 2;
    mesh.columns = subW * n + 1;
    mesh.rows = subH * n + 1;
    mesh.vertices.reserve(size_t(mesh.rows) * size_t(mesh.columns));
    for (int r = 0; r < mesh.rows; ++r) {
        const int sh = std::min(r / n, subH - 1);
        const double t = double(r - sh * n) / n;
        for (int c = 0; c < mesh.columns; ++c) {
            const int sw = std::min(c / n, subW - 1);
            const double s = double(c - sw * n) / n;
            mesh.vertices.push_back(patchPoint(patch, sw, sh, s, t));
            mesh.bounds.add(mesh.vertices.back());
        }
    }
    return mesh;
}

std::vector<std::array<int, 3>> PatchMesh::triangles() const {
    std::vector<std::array<int, 3>> out;
    if (rows < 2 || columns < 2) return out;
    out.reserve(size_t(rows - 1) * size_t(columns - 1) * 2);
    for (int r = 0; r + 1 < rows; ++r)
        for (int c = 0; c + 1 < columns; ++c) {
            const int a = r * columns + c, b = a + 1, d = a + columns, e = d + 1;
            out.push_back({a, b, e});
            out.push_back({a, e, d});
        }
    return out;
}

} // namespace shallot
