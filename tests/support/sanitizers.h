#pragma once
// Whether this test binary (and so the gpucheck built beside it) runs under AddressSanitizer: its shadow
// memory, redzones and quarantine make memory bounds and address-space limits meaningless there, so those
// checks are the default build's; under ASan the same runs are checked for memory errors.
namespace gpucheck::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAsan = true;
#else
inline constexpr bool kUnderAsan = false;
#endif
#else
inline constexpr bool kUnderAsan = false;
#endif

}  // namespace gpucheck::test
