#pragma once
// Whether this test was built with AddressSanitizer (scripts/sanitize.sh): GCC defines
// __SANITIZE_ADDRESS__, clang answers __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHALLOT_TEST_UNDER_ASAN
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SHALLOT_TEST_UNDER_ASAN
#endif

#ifdef SHALLOT_TEST_UNDER_ASAN
inline constexpr bool kUnderAddressSanitizer = true;
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif
