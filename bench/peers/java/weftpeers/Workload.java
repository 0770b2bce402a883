// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.concurrent.ForkJoinPool;

/** One benchmark: parses the positional arguments of its -seq binary,
 *  runs untimed on a smaller input (JIT warm-up, Prog.warmUp: the timed run then
 *  measures compiled code, as the C and Rust versions do), then times the
 *  real input on the pool, prints the answer and checks it. */
public interface Workload {
    void run(Prog prog, String[] args, ForkJoinPool pool);
}
