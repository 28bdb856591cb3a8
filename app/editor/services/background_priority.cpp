#include "services/background_priority.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace shallot {

namespace {
constexpr int kBackgroundNice = 10;
}

void lowerThreadPriority() {
#ifdef __linux__
    // On Linux, PRIO_PROCESS with a thread id sets that one thread's nice value. Failure
    // (a sandbox forbidding it) only leaves the thread at normal priority.
    const id_t thread = id_t(syscall(SYS_gettid));
    if (getpriority(PRIO_PROCESS, thread) < kBackgroundNice) setpriority(PRIO_PROCESS, thread, kBackgroundNice);
#endif
}

} // namespace shallot
