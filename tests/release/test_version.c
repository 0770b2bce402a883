// SPDX-License-Identifier: Apache-2.0
/* The version macros agree with each other, with the version CMake's
 * project() declares (WEFT_TEST_PROJECT_VERSION, from the build), and with
 * weft_version() of the library linked. */
#include <weft/weft.h>

#include <stdio.h>
#include <string.h>

#include "check.h"

int main(void)
{
    char numbers[64];
    snprintf(numbers, sizeof numbers, "%d.%d.%d", WEFT_VERSION_MAJOR, WEFT_VERSION_MINOR,
             WEFT_VERSION_PATCH);
    CHECK(strcmp(numbers, WEFT_VERSION) == 0, "WEFT_VERSION \"%s\" but the numbers say %s",
          WEFT_VERSION, numbers);
    CHECK(strcmp(WEFT_VERSION, WEFT_TEST_PROJECT_VERSION) == 0,
          "WEFT_VERSION \"%s\" but CMake's project version is %s", WEFT_VERSION,
          WEFT_TEST_PROJECT_VERSION);
    const char *lib = weft_version();
    CHECK(lib != NULL && strcmp(lib, WEFT_VERSION) == 0, "weft_version() \"%s\", headers \"%s\"",
          lib ? lib : "(null)", WEFT_VERSION);
    /* Usable before weft_start and after weft_stop. */
    CHECK(weft_start(1, 0, 0) == 0, "weft_start");
    weft_stop();
    CHECK(weft_version() == lib, "weft_version() changed across a start and stop");
    printf("ok: weft %s (headers %d.%d.%d)\n", lib, WEFT_VERSION_MAJOR, WEFT_VERSION_MINOR,
           WEFT_VERSION_PATCH);
    return 0;
}
