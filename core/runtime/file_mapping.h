#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace shallot {

// A regular file mapped read-only into memory (POSIX mmap), unmapped on destruction.
// Used to decode an .obsp without first copying the whole file into a buffer.
class FileMapping {
public:
    FileMapping() = default;
    FileMapping(const FileMapping&) = delete;
    FileMapping& operator=(const FileMapping&) = delete;
    ~FileMapping();

    // Maps `path`. Fails (with `error` set) when it cannot be opened, is not a regular file,
    // is larger than maxBytes, or cannot be mapped; an empty file maps to no bytes.
    bool map(const std::string& path, size_t maxBytes, std::string& error);
    std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }

private:
    void* data_ = nullptr;
    size_t size_ = 0;
};

} // namespace shallot
