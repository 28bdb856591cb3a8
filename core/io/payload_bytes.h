#pragma once
// Little-endian writing and reading of an .obsp section's payload, shared by the sections
// whose code lives apart from obsp_format.cpp (the lightmaps, the movers). A read past the
// end, or any check of the section's own, throws PayloadMalformed with the byte it is at.
#include "geometry/plane.h"

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

namespace shallot {

struct PayloadMalformed {
    std::string message;
    size_t at;
};

struct PayloadWriter {
    std::string s;
    void u8(uint8_t v) { put(v, 1); }
    void u32(uint32_t v) { put(v, 4); }
    void i32(int32_t v) { u32(uint32_t(v)); }
    void u64(uint64_t v) { put(v, 8); }
    void f64(double v) { u64(std::bit_cast<uint64_t>(v)); }
    void vec(const Vec3& v) {
        f64(v.x());
        f64(v.y());
        f64(v.z());
    }
    void bytes(std::string_view b) { s.append(b.data(), b.size()); }

private:
    void put(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) s.push_back(char((v >> (8 * i)) & 0xff));
    }
};

struct PayloadReader {
    std::string_view b;
    const char* what; // the section's payload, as its errors name it: "the movers"
    size_t pos = 0;
    void need(uint64_t n) const {
        if (uint64_t(b.size() - pos) < n) throw PayloadMalformed{std::string("unexpected end of ") + what, pos};
    }
    uint64_t get(int n) {
        need(uint64_t(n));
        uint64_t v = 0;
        for (int i = 0; i < n; ++i) v |= uint64_t(uint8_t(b[pos + size_t(i)])) << (8 * i);
        pos += size_t(n);
        return v;
    }
    uint8_t u8() { return uint8_t(get(1)); }
    uint32_t u32() { return uint32_t(get(4)); }
    int32_t i32() { return int32_t(u32()); }
    uint64_t u64() { return get(8); }
    double f64() { return std::bit_cast<double>(get(8)); }
    Vec3 vec() {
        const double x = f64(), y = f64(), z = f64();
        return {x, y, z};
    }
    std::string_view bytes(uint64_t n) {
        need(n);
        const std::string_view v = b.substr(pos, size_t(n));
        pos += size_t(n);
        return v;
    }
};

} // namespace shallot
