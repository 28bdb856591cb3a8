#include "services/background_priority.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace shallot {

namespace {
constexpr int kBackgroundNice = 10;
constexpr int kLaterNice = 19; // the lowest: runs on what the other threads leave idle

void lowerTo(int nice) {
#ifdef __linux__
    // On Linux, PRIO_PROCESS with a thread id sets that one thread's nice value. Failure
    // (a sandbox forbidding it) only leaves the thread at normal priority.
    const id_t thread = id_t(syscall(SYS_gettid));
    if (getpriority(PRIO_PROCESS, thread) < nice) setpriority(PRIO_PROCESS, thread, nice);
#else
    (void)nice;
#endif
}
} // namespace

void lowerThreadPriority() { lowerTo(kBackgroundNice); }

void lowestThreadPriority() { lowerTo(kLaterNice); }

} // namespace shallot
