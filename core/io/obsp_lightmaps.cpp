#include "io/obsp_lightmaps.h"

#include "io/payload_bytes.h"

#include <cmath>
#include <set>

namespace shallot {

namespace {

// A plane normal read back must be unit to this (the writer stores unit normals).
constexpr double kStoredNormalTolerance = 1e-6;

// Per face, the bytes it needs at least (plane, name length, flags, projection, vertex
// count, 3 vertices, style count).
constexpr uint64_t kFaceMinBytes = 32 + 4 + 1 + 64 + 4 + 3 * 24 + 1;

} // namespace

std::string lightmapPayload(const LevelLighting& lighting) {
    PayloadWriter o;
    o.u32(uint32_t(lighting.faces.size()));
    for (size_t f = 0; f < lighting.faces.size(); ++f) {
        const LitFace& face = lighting.faces[f];
        const FaceLightmap& map = lighting.lightmaps[f];
        o.vec(face.plane.normal);
        o.f64(face.plane.dist);
        const std::string name = face.texture.substr(0, kObspMaxTextureName);
        o.u32(uint32_t(name.size()));
        o.s += name;
        o.u8(uint8_t((face.lightmapped ? 1 : 0) | (face.outside ? 2 : 0)));
        for (int i = 0; i < 2; ++i) {
            o.vec(face.projection.axis[size_t(i)]);
            o.f64(face.projection.offset[size_t(i)]);
        }
        o.u32(uint32_t(face.polygon.vertices.size()));
        for (const Vec3& v : face.polygon.vertices) o.vec(v);
        o.u8(uint8_t(map.styles.size()));
        if (map.styles.empty()) continue;
        o.i32(map.grid.mins[0]);
        o.i32(map.grid.mins[1]);
        o.u32(uint32_t(map.grid.size[0]));
        o.u32(uint32_t(map.grid.size[1]));
        for (const StyleLightmap& s : map.styles) {
            o.u8(uint8_t(s.style));
            o.s.append(reinterpret_cast<const char*>(s.light.data()), s.light.size());
            o.s.append(reinterpret_cast<const char*>(s.rgb.data()), s.rgb.size());
        }
    }
    return o.s;
}

std::optional<LevelLighting> readLightmapPayload(std::string_view payload, std::string& error, size_t& errorAt) {
    PayloadReader in{payload, "the lightmaps"};
    LevelLighting out;
    size_t f = 0;
    try {
        const uint32_t count = in.u32();
        if (uint64_t(count) * kFaceMinBytes > payload.size() - in.pos)
            throw PayloadMalformed{"face count " + std::to_string(count) + " is larger than the lightmaps", 0};
        out.faces.reserve(count);
        out.lightmaps.reserve(count);
        for (; f < count; ++f) {
            const size_t at = in.pos;
            const auto bad = [&](const std::string& what) { return PayloadMalformed{"face " + std::to_string(f) + ": " + what, at}; };
            LitFace face;
            face.plane.normal = in.vec();
            face.plane.dist = in.f64();
            if (!face.plane.isFinite() || std::abs(face.plane.normal.norm() - 1) > kStoredNormalTolerance)
                throw bad("bad plane");
            const uint32_t nameLength = in.u32();
            if (nameLength > kObspMaxTextureName) throw bad("texture name too long");
            in.need(nameLength);
            face.texture = std::string(payload.substr(in.pos, nameLength));
            in.pos += nameLength;
            const uint8_t flags = in.u8();
            if (flags > 3) throw bad("unknown flags");
            face.lightmapped = flags & 1;
            face.outside = flags & 2;
            for (int i = 0; i < 2; ++i) {
                face.projection.axis[size_t(i)] = in.vec();
                face.projection.offset[size_t(i)] = in.f64();
                if (!face.projection.axis[size_t(i)].allFinite() || !std::isfinite(face.projection.offset[size_t(i)]))
                    throw bad("non-finite texture projection");
            }
            const uint32_t vertices = in.u32();
            if (vertices < 3 || vertices > kObspMaxFaceVertices) throw bad("bad vertex count");
            in.need(uint64_t(vertices) * 24);
            for (uint32_t k = 0; k < vertices; ++k) {
                face.polygon.vertices.push_back(in.vec());
                if (!face.polygon.vertices.back().allFinite()) throw bad("non-finite vertex");
            }
            FaceLightmap map;
            const uint8_t styles = in.u8();
            if (styles > 0) {
                map.grid.mins = {in.i32(), in.i32()};
                const uint32_t w = in.u32(), h = in.u32();
                if (w >= uint32_t(kMaxFaceLuxels) || h >= uint32_t(kMaxFaceLuxels) ||
                    uint64_t(w + 1) * (h + 1) > uint64_t(kMaxFaceLuxels))
                    throw bad("lightmap too large");
                map.grid.size = {int(w), int(h)};
                const uint64_t luxels = uint64_t(map.grid.luxels());
                in.need(uint64_t(styles) * (1 + luxels * 4));
                std::set<int> seen;
                for (uint8_t k = 0; k < styles; ++k) {
                    StyleLightmap s;
                    s.style = in.u8();
                    if (s.style > 254 || !seen.insert(s.style).second) throw bad("bad or repeated light style");
                    const auto* bytes = reinterpret_cast<const uint8_t*>(payload.data() + in.pos);
                    s.light.assign(bytes, bytes + luxels);
                    s.rgb.assign(bytes + luxels, bytes + luxels * 4);
                    in.pos += size_t(luxels * 4);
                    map.styles.push_back(std::move(s));
                }
            }
            out.faces.push_back(std::move(face));
            out.lightmaps.push_back(std::move(map));
        }
        if (in.pos != payload.size()) throw PayloadMalformed{"unexpected bytes after the last face", in.pos};
    } catch (const PayloadMalformed& m) {
        error = m.message;
        errorAt = m.at;
        return std::nullopt;
    }
    out.stats.faces = out.faces.size();
    for (size_t k = 0; k < out.faces.size(); ++k) {
        out.stats.outsideFaces += out.faces[k].outside;
        if (!out.lightmaps[k].styles.empty()) {
            ++out.stats.lightmappedFaces;
            out.stats.luxels += size_t(out.lightmaps[k].grid.luxels());
        }
    }
    return out;
}

} // namespace shallot
