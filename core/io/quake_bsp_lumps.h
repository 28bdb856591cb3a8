#pragma once
// What the readers of Quake's compiled levels (quake_bsp_reader.h: visibility;
// quake_bsp_lightmap.h: lightmaps) share: the header's layout, little-endian fields and the
// checked lookup of a lump. Written from the file format (bspfile.h's layout).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace shallot::bsp {

inline constexpr int kLumpPlanes = 1;
inline constexpr int kLumpModels = 14;
inline constexpr int kLumpCount = 15;
inline constexpr size_t kHeaderBytes = 4 + kLumpCount * 8; // int32 version, then offset and length per lump
inline constexpr int32_t kBsp29Version = 29;
inline constexpr size_t kPlaneBytes = 20; // float normal[3], float dist, int32 type
inline constexpr size_t kModelBytes = 64; // float mins[3], maxs[3], origin[3]; int32 headnode[4], visleafs, firstface, numfaces

// Little-endian fields at byte offsets the caller has checked.
inline uint32_t u32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
inline int32_t i32(const uint8_t* p) { return int32_t(u32(p)); }
inline uint16_t u16(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }
inline int16_t i16(const uint8_t* p) { return int16_t(u16(p)); }
inline float f32(const uint8_t* p) { return std::bit_cast<float>(u32(p)); }

struct Lump {
    const uint8_t* data = nullptr;
    size_t bytes = 0;
};

// A file whose header the caller has checked to be kHeaderBytes long at least; the first
// error met stays in `error` ("bsp: ...").
struct LumpReader {
    std::span<const uint8_t> file;
    std::string error;

    bool fail(const std::string& why) {
        error = "bsp: " + why;
        return false;
    }

    // Lump `index`, which must lie inside the file and (recordBytes > 0) hold whole records.
    bool lump(int index, const char* name, size_t recordBytes, Lump* out) {
        const uint8_t* entry = file.data() + 4 + size_t(index) * 8;
        const int32_t offset = i32(entry), length = i32(entry + 4);
        if (offset < 0 || length < 0 || size_t(offset) > file.size() || size_t(length) > file.size() - size_t(offset))
            return fail(std::string("lump '") + name + "' lies outside the file (offset " + std::to_string(offset) +
                        ", length " + std::to_string(length) + ", file " + std::to_string(file.size()) + " bytes)");
        if (recordBytes > 0 && size_t(length) % recordBytes != 0)
            return fail(std::string("lump '") + name + "' is " + std::to_string(length) + " bytes, not a multiple of " +
                        std::to_string(recordBytes));
        *out = {file.data() + offset, size_t(length)};
        return true;
    }
};

} // namespace shallot::bsp
