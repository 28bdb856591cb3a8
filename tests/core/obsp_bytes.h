#pragma once
// Byte surgery on .obsp images for the format tests: little-endian fields, every checksum
// recomputed as a hostile writer would, and where a section's payload starts.
#include "io/obsp_format.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace shallot::test {

inline void putLE(std::string& b, size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b[at + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

inline uint64_t getLE(const std::string& b, size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(b[at + size_t(i)])) << (8 * i);
    return v;
}

inline void fixChecksums(std::string& b) {
    if (b.size() < 96) return;
    putLE(b, 92, obspCrc32(b.data(), 92), 4);
    size_t pos = 96;
    while (b.size() - pos >= 12) {
        const uint64_t length = getLE(b, pos + 4, 8);
        if (length > b.size() - pos - 12 || b.size() - pos - 12 - length < 4) return;
        const size_t crcAt = pos + 12 + size_t(length);
        putLE(b, crcAt, obspCrc32(b.data() + pos, 12 + size_t(length)), 4);
        pos = crcAt + 4;
    }
}

// Where the payload of the section tagged `tag` starts (0, and a test failure, when none).
inline size_t payloadOf(const std::string& b, const char* tag) {
    size_t pos = 96;
    while (pos + 12 <= b.size()) {
        if (std::memcmp(b.data() + pos, tag, 4) == 0) return pos + 12;
        pos += 16 + size_t(getLE(b, pos + 4, 8));
    }
    ADD_FAILURE() << "no section " << tag;
    return 0;
}

} // namespace shallot::test
