#pragma once
// How the runtime's calls answer (private to core/runtime): results and errors as values.
#include "shallot/runtime.h"

#include <exception>
#include <new>
#include <string>

namespace shallot::runtime {

// Runs f, turning anything it throws into an error value: nothing crosses the API.
template <class R, class F>
R guarded(F&& f) {
    R failed;
    try {
        return f();
    } catch (const std::bad_alloc&) {
        failed.error = "out of memory";
    } catch (const std::exception& e) {
        failed.error = std::string("internal error: ") + e.what();
    } catch (...) {
        failed.error = "internal error";
    }
    return failed;
}

template <class T>
Result<T> failure(std::string message) {
    Result<T> r;
    r.error = std::move(message);
    return r;
}

template <class T>
Result<T> success(T value) {
    Result<T> r;
    r.value = std::move(value);
    return r;
}

} // namespace shallot::runtime
