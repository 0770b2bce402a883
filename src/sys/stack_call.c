// SPDX-License-Identifier: Apache-2.0
/* weft__call_on_stack (stack_call.h).
 *
 * On x86-64 and AArch64 a few instructions: keep the caller's stack
 * pointer in a callee-saved register (which fn preserves, as the ABI
 * says), move the stack pointer, call, move it back.  Calls and returns
 * stay paired, so return-address predictors and shadow stacks are
 * undisturbed, and the CFI lets debuggers unwind through it.  Elsewhere
 * makecontext/swapcontext, which also save and restore the signal mask
 * (two system calls per switch).
 */
#include "sys/stack_call.h"

#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__)
#define WEFT_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEFT_ASAN_FIBERS 1
#endif
#endif
#ifdef WEFT_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

/* What the trampoline needs on the new stack. */
typedef struct call_frame {
    void (*fn)(void *);
    void *arg;
    void *fake_stack;      /* ASan: the caller's fake stack, kept while away */
    const void *caller_lo; /* ASan: the caller's stack bounds */
    size_t caller_size;
} call_frame;

static void trampoline(void *p)
{
    call_frame *f = p;
#ifdef WEFT_ASAN_FIBERS
    /* NULL: a fresh stack has no fake frames to bring back. */
    __sanitizer_finish_switch_fiber(NULL, &f->caller_lo, &f->caller_size);
#endif
    f->fn(f->arg);
#ifdef WEFT_ASAN_FIBERS
    /* NULL: this stack's fake frames die with the call. */
    __sanitizer_start_switch_fiber(NULL, f->caller_lo, f->caller_size);
#endif
}

#if defined(__x86_64__) && defined(__ELF__)
/* weft__stack_call_raw(fn, arg, top): rdi = fn, rsi = arg, rdx = top. */
void weft__stack_call_raw(void (*fn)(void *), void *arg, void *top);
__asm__(".text\n"
        ".globl weft__stack_call_raw\n"
        ".hidden weft__stack_call_raw\n"
        ".type weft__stack_call_raw, @function\n"
        "weft__stack_call_raw:\n"
        ".cfi_startproc\n"
#ifdef __CET__
        "endbr64\n"
#endif
        "pushq %rbp\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset %rbp, -16\n"
        "movq %rsp, %rbp\n"
        ".cfi_def_cfa_register %rbp\n"
        "movq %rdx, %rsp\n"
        "movq %rdi, %rax\n"
        "movq %rsi, %rdi\n"
        "callq *%rax\n"
        "movq %rbp, %rsp\n"
        "popq %rbp\n"
        ".cfi_def_cfa %rsp, 8\n"
        "ret\n"
        ".cfi_endproc\n"
        ".size weft__stack_call_raw, .-weft__stack_call_raw\n"
        ".section .note.GNU-stack,\"\",@progbits\n"
        ".text\n");
#define HAVE_RAW_CALL 1
#elif defined(__aarch64__) && defined(__ELF__)
/* x0 = fn, x1 = arg, x2 = top. */
void weft__stack_call_raw(void (*fn)(void *), void *arg, void *top);
__asm__(".text\n"
        ".globl weft__stack_call_raw\n"
        ".hidden weft__stack_call_raw\n"
        ".type weft__stack_call_raw, %function\n"
        "weft__stack_call_raw:\n"
        ".cfi_startproc\n"
        "stp x29, x30, [sp, #-16]!\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset x29, -16\n"
        ".cfi_offset x30, -8\n"
        "mov x29, sp\n"
        ".cfi_def_cfa_register x29\n"
        "mov sp, x2\n"
        "mov x16, x0\n"
        "mov x0, x1\n"
        "blr x16\n"
        "mov sp, x29\n"
        "ldp x29, x30, [sp], #16\n"
        ".cfi_def_cfa sp, 0\n"
        "ret\n"
        ".cfi_endproc\n"
        ".size weft__stack_call_raw, .-weft__stack_call_raw\n"
        ".section .note.GNU-stack,\"\",%progbits\n"
        ".text\n");
#define HAVE_RAW_CALL 1
#else
#include <stdlib.h>
#include <ucontext.h>

/* makecontext passes int arguments only: the frame goes through here. */
static __thread call_frame *ucontext_frame;

static void ucontext_entry(void)
{
    trampoline(ucontext_frame);
    /* uc_link returns to the caller's context. */
}
#endif

void weft__call_on_stack(void (*fn)(void *), void *arg, void *stack_lo, size_t size)
{
    call_frame f = {.fn = fn, .arg = arg, .fake_stack = NULL, .caller_lo = NULL, .caller_size = 0};
#ifdef WEFT_ASAN_FIBERS
    __sanitizer_start_switch_fiber(&f.fake_stack, stack_lo, size);
#endif
#ifdef HAVE_RAW_CALL
    /* 16-byte aligned top, as both ABIs require at a call. */
    void *top = (void *)(((uintptr_t)stack_lo + size) & ~(uintptr_t)15);
    weft__stack_call_raw(trampoline, &f, top);
#else
    ucontext_t back, there;
    if (getcontext(&there) != 0)
        abort();
    there.uc_stack.ss_sp = stack_lo;
    there.uc_stack.ss_size = size;
    there.uc_link = &back;
    makecontext(&there, ucontext_entry, 0);
    ucontext_frame = &f;
    if (swapcontext(&back, &there) != 0)
        abort();
#endif
#ifdef WEFT_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(f.fake_stack, NULL, NULL);
#endif
}
