// SPDX-License-Identifier: Apache-2.0
/* The model of the runtime's thread-locals that its paths read often.
 *
 * The shared library reads them initial-exec: a load off the thread
 * pointer, and its own few words fit glibc's static reserve when it is
 * opened with dlopen.  The static libraries leave the model to the
 * compiler and the linker: linked into an executable they get the same
 * direct access (the linker relaxes it), and a shared object that links
 * them keeps its thread-locals out of the static reserve, which a
 * client's own (Sylvan's statistics, over a kilobyte) would overflow:
 * "cannot allocate memory in static TLS block" at dlopen. */
#ifndef WEFT_SYS_TLS_H
#define WEFT_SYS_TLS_H

#ifdef WEFT__SHARED_LIBRARY
#define WEFT__TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define WEFT__TLS_MODEL
#endif

#endif
