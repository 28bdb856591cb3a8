#pragma once
// Shared pieces of the libFuzzer targets (see scripts/fuzz.sh and docs/bad-input.md).
#include "io/obsp_format.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace shallot::fuzz {

// An invariant of the code under test that does not hold: a finding, reported like a crash.
#define SHALLOT_FUZZ_CHECK(condition, what)                                                            \
    do {                                                                                               \
        if (!(condition)) {                                                                            \
            std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n  %s\n", __FILE__, __LINE__, #condition, \
                         std::string(what).c_str());                                                   \
            std::abort();                                                                              \
        }                                                                                              \
    } while (0)

inline void putLE32(std::string& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

// Recomputes the header and section checksums of .obsp bytes, as a hostile writer would,
// so that mutations reach the validation behind the checksums. Stops at the first section
// frame that does not fit.
inline void fixObspChecksums(std::string& b) {
    if (b.size() < 96) return;
    putLE32(b, 92, obspCrc32(b.data(), 92));
    size_t pos = 96;
    while (b.size() - pos >= 12) {
        uint64_t length = 0;
        for (int i = 0; i < 8; ++i) length |= uint64_t(uint8_t(b[pos + 4 + size_t(i)])) << (8 * i);
        if (length > b.size() - pos - 12 || b.size() - pos - 12 - length < 4) return;
        const size_t crcAt = pos + 12 + size_t(length);
        putLE32(b, crcAt, obspCrc32(b.data() + pos, 12 + size_t(length)));
        pos = crcAt + 4;
    }
}

inline bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

} // namespace shallot::fuzz
