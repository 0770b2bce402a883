// SPDX-License-Identifier: Apache-2.0
/** @file
 * weft's version: the headers' (macros) and the library's (a function).
 *
 * The headers carry the version they belong to as WEFT_VERSION
 * ("MAJOR.MINOR.PATCH") and as the numbers WEFT_VERSION_MAJOR,
 * WEFT_VERSION_MINOR and WEFT_VERSION_PATCH (all in weft/config.h, which
 * includes this header); weft_version() returns the version of the
 * library a program runs with.  The two differ only when a program runs
 * against another build of the library than the one whose headers it was
 * compiled with.
 *
 * Versions follow Semantic Versioning: while MAJOR is 0, a new MINOR may
 * change the API or the ABI and a new PATCH does not; the CMake package
 * accepts a request for the same MAJOR.MINOR only.  CHANGELOG.md lists
 * what each version changed. */
#ifndef WEFT_VERSION_H
#define WEFT_VERSION_H

#include <weft/bits/lang.h>
#include <weft/config.h>

WEFT_BEGIN_DECLS

/** The version of the library linked, "MAJOR.MINOR.PATCH" (as
 * WEFT_VERSION when the headers and the library are of one build): a
 * static string, never NULL; callable from any thread, at any time. */
const char *weft_version(void);

WEFT_END_DECLS

#endif
