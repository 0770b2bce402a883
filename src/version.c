// SPDX-License-Identifier: Apache-2.0
/* weft_version(): the version this library was built as (weft/version.h). */
#include <weft/version.h>

const char *weft_version(void) { return WEFT_VERSION; }
