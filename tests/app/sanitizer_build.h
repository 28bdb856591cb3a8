#pragma once
// Whether this test runs under AddressSanitizer (scripts/sanitize.sh). The ASan build
// compiles the test programs themselves plain (tests/CMakeLists.txt) and defines
// SHALLOT_TEST_UNDER_ASAN for them; a test compiled with ASan is detected too: GCC
// defines __SANITIZE_ADDRESS__, clang answers __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(SHALLOT_TEST_UNDER_ASAN)
#define SHALLOT_TEST_UNDER_ASAN
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(SHALLOT_TEST_UNDER_ASAN)
#define SHALLOT_TEST_UNDER_ASAN
#endif

#ifdef SHALLOT_TEST_UNDER_ASAN
inline constexpr bool kUnderAddressSanitizer = true;
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif
