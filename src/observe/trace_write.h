// SPDX-License-Identifier: Apache-2.0
/* The trace writer (trace_write.c): one file of the recorder's records, in
 * the Chrome Trace Event format.  Not installed. */
#ifndef WEFT_OBSERVE_TRACE_WRITE_H
#define WEFT_OBSERVE_TRACE_WRITE_H

#include "observe/trace_record.h"

/* Writes file to path: 0, or errno (a message already given). */
int weft__trace_write_file(const char *path, const weft__trace_file *file);

#endif
