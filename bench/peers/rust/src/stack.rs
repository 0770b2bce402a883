// SPDX-License-Identifier: Apache-2.0
//! Worker stacks large enough for the deepest recursion, and a guard that
//! stops a search with a message before it overflows its stack (Rust
//! would abort with SIGABRT): legal UTS flags can describe trees deeper
//! than any stack, and bad input must never crash.

use std::cell::Cell;

/// Deep enough for every published UTS sample tree (T3L: 17,844 levels,
/// a few join frames each); only the touched pages cost memory.
pub const WORKER_STACK_BYTES: usize = 1 << 30;

/// Left unused below the guard: room for the frames between two checks
/// and for the panic/exit path.
const MARGIN_BYTES: usize = 4 << 20;

thread_local! {
    /// Address near the top of this worker's stack; 0 on other threads.
    static TOP: Cell<usize> = const { Cell::new(0) };
}

fn here() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Called first thing on each worker thread (the pool's start handler).
pub fn mark_thread_top() {
    TOP.with(|t| t.set(here()));
}

/// Exits with a message if the calling worker has used its stack down to
/// the margin.  `what` says what got too deep (e.g. the tree depth).
#[inline]
pub fn guard(prog: &str, what: impl FnOnce() -> String) {
    let top = TOP.with(Cell::get);
    // Stacks grow down on every platform this runs on.
    if top != 0 && top.saturating_sub(here()) > WORKER_STACK_BYTES - MARGIN_BYTES {
        too_deep(prog, what());
    }
}

#[cold]
fn too_deep(prog: &str, what: String) -> ! {
    eprintln!(
        "{prog}: recursion deeper than the {} MB worker stack allows ({what})",
        WORKER_STACK_BYTES >> 20
    );
    std::process::exit(1)
}
