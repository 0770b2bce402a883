// SPDX-License-Identifier: Apache-2.0
/* A fault that is not weft's, on a thread that is not weft's, in a program
 * whose weft came in a plugin: weft's SIGSEGV handler passes it on to the
 * program's own handler without calling malloc or free on the faulting
 * thread.
 *
 * The host links no weft.  It installs its own SIGSEGV handler, starts a
 * thread, and only then loads the plugin (argv[1], which links the static
 * library), which starts a pool: weft's handler goes in front of the
 * host's.  The thread was made before the plugin was loaded, so the
 * plugin's thread-locals have no memory on it yet, and reading one would
 * allocate it with malloc, inside a signal handler.  The thread then writes
 * to a page of the host's that it has made inaccessible.  The host's
 * malloc family, defined here, counts its calls on that thread while the
 * fault is handled; the host's handler makes the page writable again.
 *
 * The check rests on glibc allocating a plugin's thread-locals with malloc
 * when a thread first reads one.  So the thread, after its fault, reads
 * weft's thread-locals on purpose (plugin_on_worker), and that read must
 * call malloc: if it does not, the check above proves nothing, and the
 * test says so and fails. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* glibc's own allocator, under the names it exports for interposers. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static pthread_t faulting_thread;
static atomic_int counting;       /* set on the faulting thread around its fault */
static atomic_int calls_while_on; /* malloc-family calls on it meanwhile */
static atomic_int calls_on_read;  /* the same while it reads weft's thread-locals */
static atomic_int *counted_in = &calls_while_on;

static void count_call(void)
{
    if (atomic_load(&counting) && pthread_equal(pthread_self(), faulting_thread))
        atomic_fetch_add(counted_in, 1);
}

void *malloc(size_t n)
{
    count_call();
    return __libc_malloc(n);
}
void *calloc(size_t k, size_t n)
{
    count_call();
    return __libc_calloc(k, n);
}
void *realloc(void *p, size_t n)
{
    count_call();
    return __libc_realloc(p, n);
}
void free(void *p)
{
    count_call();
    __libc_free(p);
}

static char *host_page;
static size_t page_bytes;
static atomic_int host_handler_calls;
static void *host_fault_addr;

static void host_handler(int sig, siginfo_t *info, void *uctx)
{
    (void)sig;
    (void)uctx;
    atomic_fetch_add(&host_handler_calls, 1);
    host_fault_addr = info->si_addr;
    if ((char *)info->si_addr >= host_page && (char *)info->si_addr < host_page + page_bytes)
        mprotect(host_page, page_bytes, PROT_READ | PROT_WRITE);
    else
        _exit(3); /* not the fault this test makes */
}

static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int go;

typedef int (*plugin_on_worker_fn)(void);
static plugin_on_worker_fn on_worker;
static int on_worker_answer = -1;

static void *faulting_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&go_lock);
    while (!go)
        pthread_cond_wait(&go_cond, &go_lock);
    pthread_mutex_unlock(&go_lock);
    atomic_store(&counting, 1);
    ((volatile char *)host_page)[7] = 42;
    atomic_store(&counting, 0);
    counted_in = &calls_on_read;
    atomic_store(&counting, 1);
    on_worker_answer = on_worker();
    atomic_store(&counting, 0);
    return NULL;
}

typedef long (*plugin_fib_fn)(unsigned, int);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_plugin_fault <plugin.so>\n");
        return 2;
    }
    page_bytes = (size_t)sysconf(_SC_PAGESIZE);
    host_page = mmap(NULL, page_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (host_page == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = host_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0) {
        perror("sigaction");
        return 1;
    }
    if (pthread_create(&faulting_thread, NULL, faulting_main, NULL) != 0) {
        fprintf(stderr, "FAIL: pthread_create\n");
        return 1;
    }
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    plugin_fib_fn fib = (plugin_fib_fn)(void (*)(void))dlsym(h, "plugin_fib");
    if (!fib || fib(2, 20) != 6765) {
        fprintf(stderr, "FAIL: the plugin's pool did not compute fib(20)\n");
        return 1;
    }
    on_worker = (plugin_on_worker_fn)(void (*)(void))dlsym(h, "plugin_on_worker");
    if (!on_worker) {
        fprintf(stderr, "FAIL: the plugin has no plugin_on_worker\n");
        return 1;
    }
    struct sigaction now;
    if (sigaction(SIGSEGV, NULL, &now) != 0 || now.sa_sigaction == host_handler) {
        fprintf(stderr, "FAIL: the plugin's pool did not install weft's SIGSEGV handler\n");
        return 1;
    }
    pthread_mutex_lock(&go_lock);
    go = 1;
    pthread_cond_signal(&go_cond);
    pthread_mutex_unlock(&go_lock);
    pthread_join(faulting_thread, NULL);
    int failed = 0;
    if (atomic_load(&host_handler_calls) != 1 || host_fault_addr != host_page + 7) {
        fprintf(stderr, "FAIL: the host's handler ran %d times (fault at %p, expected %p)\n",
                atomic_load(&host_handler_calls), host_fault_addr, (void *)(host_page + 7));
        failed = 1;
    }
    if (host_page[7] != 42) {
        fprintf(stderr, "FAIL: the faulting write did not happen again after the handler\n");
        failed = 1;
    }
    if (atomic_load(&calls_while_on) != 0) {
        fprintf(stderr,
                "FAIL: %d calls of malloc or free on the faulting thread while its fault was "
                "handled\n",
                atomic_load(&calls_while_on));
        failed = 1;
    }
    if (on_worker_answer != 0) {
        fprintf(stderr, "FAIL: the faulting thread was taken for a worker (%d)\n",
                on_worker_answer);
        failed = 1;
    }
    if (atomic_load(&calls_on_read) == 0) {
        fprintf(stderr, "FAIL: reading weft's thread-locals on the thread called no malloc: "
                        "this glibc does not allocate a plugin's thread-locals lazily, and the "
                        "check of the handler proves nothing here\n");
        failed = 1;
    }
    if (!failed)
        printf("ok: a foreign fault passed to the host's handler, with no allocation\n");
    return failed;
}
