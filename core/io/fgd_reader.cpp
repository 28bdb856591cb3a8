#include "io/fgd_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace shallot {
namespace {

enum class Tok : uint8_t { End, Error, Word, String, LParen, RParen, LBracket, RBracket, Colon, Comma, Equals };

struct Token {
    Tok type = Tok::End;
    std::string_view text; // a word's text, a string's raw contents (between the quotes)
    int line = 1;
    int column = 1;
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

bool isDelimiter(char c) {
    return isSpace(c) || c == '"' || c == '(' || c == ')' || c == '[' || c == ']' || c == ':' || c == ',' ||
           c == '=';
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = lower(c);
    return out;
}

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i)
        if (lower(s[i]) != prefix[i]) return false;
    return true;
}

// A string's contents with `\"` and `\\` resolved; other backslashes are kept as they are.
std::string unescaped(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\\' && i + 1 < raw.size() && (raw[i + 1] == '"' || raw[i + 1] == '\\')) ++i;
        out += raw[i];
    }
    return out;
}

// Text for a message: at most 40 bytes, control and non-ASCII bytes as \xNN.
std::string printable(std::string_view s) {
    std::string out;
    const size_t n = std::min<size_t>(s.size(), 40);
    for (size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c >= 0x7f || c == '\\') {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += char(c);
        }
    }
    if (s.size() > n) out += "...";
    return out;
}

std::string describe(const Token& t) {
    switch (t.type) {
    case Tok::End: return "the end of the file";
    case Tok::Error: return "an unterminated string (no closing '\"' before the end of the file)";
    case Tok::Word: return "'" + printable(t.text) + "'";
    case Tok::String: return "the string \"" + printable(t.text) + "\"";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::Colon: return "':'";
    case Tok::Comma: return "','";
    case Tok::Equals: return "'='";
    }
    return "?";
}

// Tokens on demand (a 10 MB file is never held as a token list), with one token lookahead.
class Lexer {
public:
    explicit Lexer(std::string_view s) : s_(s) {
        if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = lineStart_ = 3; // UTF-8 byte order mark
    }

    const Token& peek() {
        if (!hasPeeked_) {
            peeked_ = lex();
            hasPeeked_ = true;
        }
        return peeked_;
    }
    Token next() {
        peek();
        hasPeeked_ = false;
        return peeked_;
    }

private:
    void newline(size_t afterBreak) {
        ++line_;
        lineStart_ = afterBreak;
    }
    // Steps over one byte, counting CR, LF and CRLF as one line end.
    void advance() {
        const char c = s_[pos_++];
        if (c == '\n' || (c == '\r' && (pos_ >= s_.size() || s_[pos_] != '\n'))) newline(pos_);
    }

    Token lex() {
        for (;;) {
            while (pos_ < s_.size() && isSpace(s_[pos_])) advance();
            if (pos_ + 1 < s_.size() && s_[pos_] == '/' && s_[pos_ + 1] == '/') {
                while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '\r') ++pos_;
                continue;
            }
            break;
        }
        Token t;
        t.line = line_;
        t.column = int(pos_ - lineStart_) + 1;
        if (pos_ >= s_.size()) return t;
        const char c = s_[pos_];
        auto single = [&](Tok type) {
            t.type = type;
            t.text = s_.substr(pos_, 1);
            ++pos_;
            return t;
        };
        switch (c) {
        case '(': return single(Tok::LParen);
        case ')': return single(Tok::RParen);
        case '[': return single(Tok::LBracket);
        case ']': return single(Tok::RBracket);
        case ':': return single(Tok::Colon);
        case ',': return single(Tok::Comma);
        case '=': return single(Tok::Equals);
        case '"': {
            ++pos_;
            const size_t begin = pos_;
            while (pos_ < s_.size() && s_[pos_] != '"') {
                if (s_[pos_] == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '"' || s_[pos_ + 1] == '\\')) ++pos_;
                advance();
            }
            if (pos_ >= s_.size()) {
                t.type = Tok::Error; // reported at the opening quote
                return t;
            }
            t.type = Tok::String;
            t.text = s_.substr(begin, pos_ - begin);
            ++pos_;
            return t;
        }
        default: {
            const size_t begin = pos_;
            while (pos_ < s_.size() && !isDelimiter(s_[pos_]) &&
                   !(s_[pos_] == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/'))
                ++pos_;
            t.type = Tok::Word;
            t.text = s_.substr(begin, pos_ - begin);
            return t;
        }
        }
    }

    std::string_view s_;
    size_t pos_ = 0;
    size_t lineStart_ = 0;
    int line_ = 1;
    Token peeked_;
    bool hasPeeked_ = false;
};

bool isDeclaration(const Token& t) { return t.type == Tok::Word && !t.text.empty() && t.text[0] == '@'; }

// A number of an attribute: the whole word, an optional '+', finite.
enum class NumberRead { Ok, NotANumber, NotFinite };
NumberRead readNumber(std::string_view word, double& out) {
    if (word.size() > 1 && word[0] == '+' && word[1] != '-') word.remove_prefix(1);
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), out);
    if (ec == std::errc::result_out_of_range && end == word.data() + word.size()) return NumberRead::NotFinite;
    if (ec != std::errc() || end != word.data() + word.size() || word.empty()) return NumberRead::NotANumber;
    return std::isfinite(out) ? NumberRead::Ok : NumberRead::NotFinite;
}

// What a class passes on to the classes based on it.
struct Inherited {
    bool hasSize = false;
    Vec3 mins = Vec3::Zero();
    Vec3 maxs = Vec3::Zero();
    bool hasColour = false;
    uint32_t colour = 0;
};

struct Attribute {
    Token name;
    std::vector<Token> args; // base, size and color only; at most kMaxArgs kept
    bool tooMany = false;
};
constexpr size_t kMaxArgs = 64;

enum class Kind { Base, Point, Solid };

class Parser {
public:
    Parser(std::string_view text, const std::string& file) : lex_(text), file_(file) {}

    FgdFile parse() {
        for (;;) {
            const Token t = lex_.next();
            if (t.type == Tok::End) break;
            if (!isDeclaration(t)) {
                fail(t, "expected a declaration such as @PointClass, found " + describe(t));
                skipToDeclaration();
                continue;
            }
            declaration(t);
        }
        if (dropped_ > 0)
            out_.warnings.push_back({firstDropped_.line, firstDropped_.column,
                                     firstDropped_.message + " (and " + std::to_string(dropped_ - 1) +
                                         " more problems not listed)"});
        if (out_.classes.classes().empty() && errors_ > 0) throw std::runtime_error(firstError_);
        return std::move(out_);
    }

private:
    std::string at(const Token& t) const {
        return file_ + ":" + std::to_string(t.line) + ":" + std::to_string(t.column) + ": ";
    }

    void warn(const Token& t, const std::string& message) {
        MapWarning w{t.line, t.column, at(t) + message};
        if (out_.warnings.size() < kMaxFgdWarnings) {
            out_.warnings.push_back(std::move(w));
        } else {
            if (dropped_ == 0) firstDropped_ = std::move(w);
            ++dropped_;
        }
    }
    // A piece of the file that could not be read (as opposed to a value that was dropped).
    void fail(const Token& t, const std::string& message) {
        if (errors_++ == 0) firstError_ = at(t) + message;
        warn(t, message);
    }
    // Reports `found` where something else was expected; an unterminated string says so.
    void unexpected(const Token& found, const std::string& expected) {
        if (found.type == Tok::Error) fail(found, "unterminated string: no closing '\"' before the end of the file");
        else fail(found, "expected " + expected + ", found " + describe(found));
    }

    // Leaves the lexer before the next `@` word (or at the end).
    void skipToDeclaration() {
        while (lex_.peek().type != Tok::End && !isDeclaration(lex_.peek())) lex_.next();
    }

    void declaration(const Token& at) {
        const std::string kind = lowered(at.text.substr(1));
        if (kind == "baseclass") return classDeclaration(at, Kind::Base);
        if (kind == "pointclass" || kind == "npcclass" || kind == "keyframeclass" || kind == "moveclass" ||
            kind == "filterclass")
            return classDeclaration(at, Kind::Point);
        if (kind == "solidclass") return classDeclaration(at, Kind::Solid);
        if (kind == "include") {
            const Token& name = lex_.peek();
            if (name.type == Tok::String)
                warn(at, "@include \"" + printable(name.text) + "\" is not followed: load that file on its own");
            else
                warn(at, "@include is not followed");
        } else if (kind != "mapsize" && kind != "materialexclusion" && kind != "autovisgroup") {
            warn(at, "unknown declaration '" + printable(at.text) + "' skipped");
        }
        skipToDeclaration();
    }

    // Reads `name` or `name( ... )` with balanced parentheses; false (reported) when the
    // parentheses are not closed before the next declaration.
    bool attribute(Attribute& a) {
        a.name = lex_.next();
        if (lex_.peek().type != Tok::LParen) return true;
        const Token open = lex_.next();
        const std::string name = lowered(a.name.text);
        const bool keep = name == "base" || name == "size" || name == "color";
        size_t depth = 1;
        for (;;) {
            const Token& t = lex_.peek();
            if (t.type == Tok::End || t.type == Tok::Error || isDeclaration(t)) {
                if (t.type == Tok::Error) unexpected(t, "')'");
                else
                    fail(open, "'(' of " + printable(a.name.text) + " is not closed before " + describe(t) + " at " +
                                   std::to_string(t.line) + ":" + std::to_string(t.column));
                return false;
            }
            const Token tok = lex_.next();
            if (tok.type == Tok::LParen) ++depth;
            else if (tok.type == Tok::RParen && --depth == 0) return true;
            if (keep) {
                if (a.args.size() < kMaxArgs) a.args.push_back(tok);
                else a.tooMany = true;
            }
        }
    }

    // Skips `[ ... ]` with balanced brackets; false (reported) when it is not closed.
    bool properties() {
        const Token open = lex_.next();
        size_t depth = 1;
        for (;;) {
            const Token& t = lex_.peek();
            if (t.type == Tok::End || t.type == Tok::Error || isDeclaration(t)) {
                if (t.type == Tok::Error) unexpected(t, "']'");
                else
                    fail(open, "'[' is not closed before " + describe(t) + " at " + std::to_string(t.line) + ":" +
                                   std::to_string(t.column));
                return false;
            }
            const Token tok = lex_.next();
            if (tok.type == Tok::LBracket) ++depth;
            else if (tok.type == Tok::RBracket && --depth == 0) return true;
        }
    }

    void readSize(const Attribute& a, Inherited& own) {
        std::vector<double> v;
        size_t commas = 0;
        for (const Token& t : a.args) {
            if (t.type == Tok::Comma) {
                if (v.size() != 3 || ++commas > 1) return warn(t, "size(...) expects 'x y z' or 'x y z, x y z'");
                continue;
            }
            double x = 0;
            const NumberRead r = t.type == Tok::Word ? readNumber(t.text, x) : NumberRead::NotANumber;
            if (r == NumberRead::NotANumber)
                return warn(t, "size(...) expects numbers, found " + describe(t) + "; the size is ignored");
            if (r == NumberRead::NotFinite || std::abs(x) > kMaxFgdCoordinate)
                return warn(t, "size coordinate '" + printable(t.text) +
                                   "' is out of range (sizes are finite numbers within +-" +
                                   std::to_string(int(kMaxFgdCoordinate)) + "); the size is ignored");
            v.push_back(x);
        }
        if (a.tooMany || (v.size() != 3 && v.size() != 6) || (commas == 1 && v.size() != 6))
            return warn(a.name, "size(...) expects 'x y z' or 'x y z, x y z'; the size is ignored");
        if (v.size() == 3) {
            own.maxs = Vec3(v[0], v[1], v[2]).cwiseAbs() / 2; // centred on the origin
            own.mins = -own.maxs;
        } else {
            const Vec3 p(v[0], v[1], v[2]), q(v[3], v[4], v[5]);
            if ((p.array() > q.array()).any()) warn(a.name, "size(...) has mins above maxs; they are swapped");
            own.mins = p.cwiseMin(q);
            own.maxs = p.cwiseMax(q);
        }
        for (int i = 0; i < 3; ++i) // no subnormal halves: they would not read back
            for (double* x : {&own.mins[i], &own.maxs[i]})
                if (std::abs(*x) < std::numeric_limits<double>::min()) *x = 0;
        own.hasSize = true;
    }

    void readColour(const Attribute& a, Inherited& own) {
        uint32_t rgb[3] = {0, 0, 0};
        size_t n = 0;
        for (const Token& t : a.args) {
            double x = 0;
            const NumberRead r = t.type == Tok::Word ? readNumber(t.text, x) : NumberRead::NotANumber;
            if (r != NumberRead::Ok || n == 3) {
                warn(t, "color(...) expects three numbers 0..255, found " + describe(t) + "; the colour is ignored");
                return;
            }
            if (x < 0 || x > 255) warn(t, "colour component '" + printable(t.text) + "' is clamped to 0..255");
            rgb[n++] = uint32_t(std::lround(std::clamp(x, 0.0, 255.0)));
        }
        if (n != 3 || a.tooMany) return warn(a.name, "color(...) expects three numbers 0..255; the colour is ignored");
        own.hasColour = true;
        own.colour = rgb[0] << 24 | rgb[1] << 16 | rgb[2] << 8 | 0xffu;
    }

    void classDeclaration(const Token& at, Kind kind) {
        const std::string what = printable(at.text);
        std::vector<Attribute> attributes;
        for (;;) {
            const Token& t = lex_.peek();
            if (t.type == Tok::Equals) {
                lex_.next();
                break;
            }
            if (t.type != Tok::Word || isDeclaration(t)) {
                unexpected(t, "an attribute such as size(...) or '=' before the class name of " + what);
                return skipToDeclaration();
            }
            Attribute a;
            if (!attribute(a)) return skipToDeclaration();
            const std::string name = lowered(a.name.text);
            if (name == "base" || name == "size" || name == "color") attributes.push_back(std::move(a));
        }
        const Token name = lex_.peek();
        if (name.type != Tok::Word || isDeclaration(name)) {
            unexpected(name, "a class name after '=' of " + what);
            return skipToDeclaration();
        }
        lex_.next();
        std::string description;
        if (lex_.peek().type == Tok::Colon) {
            lex_.next();
            for (;;) {
                const Token d = lex_.peek();
                if (d.type != Tok::String) {
                    unexpected(d, "a quoted description after ':' of class '" + printable(name.text) + "'");
                    return skipToDeclaration();
                }
                lex_.next();
                description += unescaped(d.text);
                const Token& plus = lex_.peek();
                if (plus.type != Tok::Word || plus.text != "+") break;
                lex_.next();
            }
        }
        const Token& open = lex_.peek();
        if (open.type == Tok::LBracket) {
            if (!properties()) return skipToDeclaration();
        } else if (open.type != Tok::End && !isDeclaration(open)) {
            unexpected(open, "'[' to start the properties of class '" + printable(name.text) + "'");
            return skipToDeclaration();
        }

        Inherited own;
        std::vector<Token> bases;
        for (const Attribute& a : attributes) {
            const std::string n = lowered(a.name.text);
            if (n == "size") readSize(a, own);
            else if (n == "color") readColour(a, own);
            else {
                for (const Token& b : a.args) {
                    if (b.type == Tok::Word || b.type == Tok::String) bases.push_back(b);
                    else if (b.type != Tok::Comma) warn(b, "unexpected " + describe(b) + " in base(...)");
                }
                if (a.tooMany)
                    warn(a.name, "base(...) lists more than " + std::to_string(kMaxArgs / 2) +
                                     " classes; the rest are ignored");
            }
        }
        for (const Token& b : bases) {
            const auto found = declared_.find(lowered(b.text));
            if (found == declared_.end()) {
                if (missing_.insert(lowered(b.text)).second) // once per name: an @include'd file's bases
                    warn(b, "base class '" + printable(b.text) + "' of '" + printable(name.text) +
                                "' is not defined before it (reported once)");
                continue;
            }
            const Inherited& base = found->second;
            if (!own.hasSize && base.hasSize) {
                own.hasSize = true;
                own.mins = base.mins;
                own.maxs = base.maxs;
            }
            if (!own.hasColour && base.hasColour) {
                own.hasColour = true;
                own.colour = base.colour;
            }
        }
        declared_[lowered(name.text)] = own;
        if (kind != Kind::Base) addClass(name, kind, own, std::move(description));

        const Token& after = lex_.peek();
        if (after.type != Tok::End && !isDeclaration(after)) {
            warn(after, "unexpected " + describe(after) + " after class '" + printable(name.text) +
                            "' (skipped up to the next declaration)");
            skipToDeclaration();
        }
    }

    void addClass(const Token& name, Kind kind, const Inherited& own, std::string description) {

        EntityClass cls = classOf(EntityClassTable(), name.text); // category guessed from the name
        cls.motion = startsWithNoCase(cls.name, "monster_") ? EntityMotion::Walk : EntityMotion::None;
        cls.hasSize = own.hasSize;
        if (own.hasSize) {
            cls.mins = own.mins;
            cls.maxs = own.maxs;
        }
        cls.colour = own.hasColour ? own.colour : categoryColour(cls.category);
        cls.solidClass = kind == Kind::Solid;
        cls.description = std::move(description);
        out_.classes.add(std::move(cls));
    }

    Lexer lex_;
    const std::string& file_;
    FgdFile out_;
    std::unordered_map<std::string, Inherited> declared_;
    std::unordered_set<std::string> missing_; // base names already reported
    int errors_ = 0;
    std::string firstError_;
    size_t dropped_ = 0;
    MapWarning firstDropped_;
};

} // namespace

FgdFile readFgd(std::string_view text, const std::string& fileName) { return Parser(text, fileName).parse(); }

} // namespace shallot
