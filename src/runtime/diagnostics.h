/* Messages for the user, shared by the fork-join runtime and the work
 * pool: every one is a line on stderr that starts with "weft: ".  Not
 * installed. */
#ifndef WEFT_RUNTIME_DIAGNOSTICS_H
#define WEFT_RUNTIME_DIAGNOSTICS_H

/* Reports and goes on. */
void weft_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reports and aborts: for misuse that would otherwise corrupt memory. */
__attribute__((noreturn)) void weft_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* One line, once per process, when `workers` (a count the program chose)
 * is more than the CPUs of the affinity mask and WEFT_OVERSUBSCRIBE is not
 * 1: the counts and, under mpirun, the option that lifts the rank's
 * binding.  `who` names the caller (weft_start, the work pool). */
void weft__note_oversubscription(const char *who, unsigned workers);

#endif
