#pragma once

namespace shallot {

// Lowers the calling thread's scheduling priority (Linux: nice 10; threads it starts inherit
// it). Compiles and overlay builds use both cores of a small machine: at the same priority
// the UI thread, and Mesa's llvmpipe threads drawing its frames, wait their turn behind them
// and the editor stutters; at nice 10 they get about nine tenths of a contended core.
void lowerThreadPriority();

} // namespace shallot
