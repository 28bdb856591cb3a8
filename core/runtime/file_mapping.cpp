#include "runtime/file_mapping.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace shallot {

FileMapping::~FileMapping() {
    if (data_) munmap(data_, size_);
}

bool FileMapping::map(const std::string& path, size_t maxBytes, std::string& error) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = "cannot open '" + path + "': " + std::strerror(errno);
        return false;
    }
    struct stat st {};
    bool ok = fstat(fd, &st) == 0;
    if (!ok) error = "cannot read '" + path + "': " + std::strerror(errno);
    else if (!S_ISREG(st.st_mode)) error = "'" + path + "' is not a regular file";
    else if (uint64_t(st.st_size) > maxBytes)
        error = "file is larger than the limit of " + std::to_string(maxBytes) + " bytes (" +
                std::to_string(st.st_size) + " bytes)";
    ok = ok && error.empty();
    if (ok && st.st_size > 0) {
        void* data = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (data == MAP_FAILED) {
            error = "cannot map '" + path + "': " + std::strerror(errno);
            ok = false;
        } else {
            data_ = data;
            size_ = size_t(st.st_size);
        }
    }
    close(fd);
    return ok;
}

} // namespace shallot
