// SPDX-License-Identifier: Apache-2.0
/* weft and the application's signal handling:
 *  - the SIGSEGV handler weft installs at start (to explain stack
 *    overflows) passes a fault that is not weft's on to the handler the
 *    application had before, or to the default action;
 *  - weft_stop restores the handler it replaced only if weft's is still
 *    installed: a handler the application installed after weft_start
 *    stays;
 *  - weft_stop or weft_suspend from a signal handler that interrupted the
 *    thread's own RUN returns EDEADLK with a message instead of waiting
 *    for itself forever. */
#include "segv_actions.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <weft/weft.h>

/* ---- faults that are not weft's ---- */

static sigjmp_buf back;
static void *volatile fault_addr;
static volatile sig_atomic_t app_handler_calls;

static void app_segv(int sig, siginfo_t *info, void *uctx)
{
    (void)sig, (void)uctx;
    app_handler_calls++;
    fault_addr = info->si_addr;
    siglongjmp(back, 1);
}

static void test_chains_to_earlier_handler(void)
{
    install_segv_handler(app_segv, 0, NULL, NULL);
    CHECK(weft_start(2, 0, 0) == 0, "start");
    char *page = no_access_page();
    app_handler_calls = 0;
    if (sigsetjmp(back, 1) == 0) {
        *(volatile char *)(page + 10) = 1; /* not a worker's stack or deque */
        CHECK(false, "the write to a PROT_NONE page did not fault");
    }
    CHECK(app_handler_calls == 1 && fault_addr == page + 10,
          "the application's handler was not called for its own fault (%d calls)",
          (int)app_handler_calls);
    CHECK(weft_stop() == 0, "stop");
    CHECK(segv_handler_installed(app_segv),
          "stop did not restore the handler that was there before start");
    signal(SIGSEGV, SIG_DFL);
    munmap(page, 4096);
    printf("ok: a fault that is not weft's reaches the handler installed before start\n");
}

static void test_later_handler_survives_stop(void)
{
    signal(SIGSEGV, SIG_DFL);
    CHECK(weft_start(2, 0, 0) == 0, "start");
    install_segv_handler(app_segv, 0, NULL, NULL); /* after start: replaces weft's */
    CHECK(weft_stop() == 0, "stop");
    CHECK(segv_handler_installed(app_segv),
          "weft_stop replaced the handler installed after weft_start");
    signal(SIGSEGV, SIG_DFL);
    printf("ok: a handler installed after weft_start survives weft_stop\n");
}

static void default_fault_child(void)
{
    signal(SIGSEGV, SIG_DFL);
    CHECK(weft_start(2, 0, 0) == 0, "start");
    *(volatile char *)no_access_page() = 1;
}

static void test_default_action(void)
{
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        default_fault_child();
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
          "a fault with the default disposition did not kill the process with SIGSEGV "
          "(status %#x)",
          status);
    printf("ok: a fault that is not weft's gets the default action (SIGSEGV)\n");
}

/* A SIGSEGV sent to the process (no fault behind it) while weft's
 * handler is in place: with the default disposition it kills the process
 * as it would without weft; ignored, it is dropped. */
static void sent_segv_child(bool ignored)
{
    signal(SIGSEGV, ignored ? SIG_IGN : SIG_DFL);
    CHECK(weft_start(2, 0, 0) == 0, "start");
    /* Once to this thread (a first one must be enough), and when ignored
     * once more to any thread of the process. */
    raise(SIGSEGV);
    if (ignored)
        kill(getpid(), SIGSEGV);
    weft_stop();
}

static void test_sent_segv(bool ignored)
{
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        sent_segv_child(ignored);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    if (ignored)
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "an ignored SIGSEGV sent with raise and kill was not dropped (status %#x)", status);
    else
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
              "a SIGSEGV sent with raise, default disposition, did not kill the process "
              "(status %#x)",
              status);
    printf("ok: a SIGSEGV sent to the process, %s, %s\n", ignored ? "ignored" : "not handled",
           ignored ? "is dropped" : "kills it");
}

/* ---- lifecycle calls from a handler that interrupted a RUN ---- */

static atomic_int in_task, handler_done;
static volatile sig_atomic_t stop_result = -1, suspend_result = -1;

static void usr1_handler(int sig)
{
    (void)sig;
    stop_result = weft_stop();
    suspend_result = weft_suspend();
    atomic_store(&handler_done, 1);
}

WEFT_VOID_TASK_0(wait_for_handler)
{
    atomic_store(&in_task, 1);
    while (!atomic_load(&handler_done))
        ;
}

static void *send_usr1(void *arg)
{
    pthread_t target = *(pthread_t *)arg;
    while (!atomic_load(&in_task))
        ;
    pthread_kill(target, SIGUSR1);
    return NULL;
}

static int stop_from_handler(void)
{
    signal(SIGUSR1, usr1_handler);
    if (weft_start(2, 0, 0) != 0)
        return 10;
    pthread_t self = pthread_self(), sender;
    pthread_create(&sender, NULL, send_usr1, &self);
    WEFT_RUN(wait_for_handler); /* the signal arrives while we wait here */
    pthread_join(sender, NULL);
    if (stop_result != EDEADLK)
        return 11;
    if (suspend_result != EDEADLK)
        return 12;
    return weft_stop() == 0 ? 0 : 13;
}

static void test_stop_from_handler(void)
{
    char buf[4096];
    int r = run_capturing_stderr(stop_from_handler, buf, sizeof buf);
    CHECK(r == 0, "weft_stop/weft_suspend from a handler inside RUN: result %d (stderr: %s)", r,
          buf);
    CHECK(strstr(buf, "weft_stop called on a thread that is inside RUN") &&
              strstr(buf, "weft_suspend called on a thread that is inside RUN"),
          "messages: %s", buf);
    printf("ok: weft_stop and weft_suspend from a handler that interrupted RUN -> EDEADLK\n");
}

int main(void)
{
    test_chains_to_earlier_handler();
    test_later_handler_survives_stop();
    test_default_action();
    test_sent_segv(false);
    test_sent_segv(true);
    test_stop_from_handler();
    return 0;
}
