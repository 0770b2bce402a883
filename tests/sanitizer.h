// SPDX-License-Identifier: Apache-2.0
/* WEFT_TEST_TSAN: 1 in a ThreadSanitizer build (GCC says so with
 * __SANITIZE_THREAD__, Clang with __has_feature), else 0; for the C and
 * the C++ tests alike. */
#ifndef WEFT_TESTS_SANITIZER_H
#define WEFT_TESTS_SANITIZER_H

#if defined(__SANITIZE_THREAD__)
#define WEFT_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WEFT_TEST_TSAN 1
#endif
#endif
#ifndef WEFT_TEST_TSAN
#define WEFT_TEST_TSAN 0
#endif

#endif
