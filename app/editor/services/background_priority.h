#pragma once

namespace shallot {

// Lowers the calling thread's scheduling priority (Linux: nice 10; threads it starts inherit
// it). Overlay builds use both cores of a small machine: at the same priority the UI
// thread, and Mesa's llvmpipe threads drawing its frames, wait their turn behind them and
// the editor stutters; at nice 10 they get about nine tenths of a contended core. The
// compile of the shown world is the exception (compile_service.cpp): everything after an
// edit waits for it.
void lowerThreadPriority();

// Lowers it further (Linux: nice 19), for work the designer does not see yet (the world
// compiled without its movers, the spawn checks): it then takes the cores only when the
// compile, the overlays and the views leave them idle. Irreversible for the thread (an
// unprivileged thread cannot raise its priority again): call it on threads of its own.
void lowestThreadPriority();

} // namespace shallot
