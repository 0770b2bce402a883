// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** UTS, the Unbalanced Tree Search (bench/uts): one task per tree node,
 *  every child forked with no cut-off.  The tree is the reference UTS 2.1
 *  tree of bench/uts/uts_tree.c, bit for bit: a child's 20-byte state is
 *  the SHA-1 of its parent's state and its index (big-endian), and a
 *  node's child count comes from its own state through the same double
 *  arithmetic in the same order.  So the published sample trees' node,
 *  leaf and depth counts check the traversal, as in uts-seq. */
public final class Uts implements Workload {
    /* Tree types (-t) and GEO shapes (-a): the reference's numbers. */
    static final int BIN = 0, GEO = 1, HYBRID = 2, BALANCED = 3;
    static final int LINEAR = 0, EXPDEC = 1, CYCLIC = 2, FIXED = 3;

    /** Child-count cap for every node but a BIN root (and BALANCED trees). */
    static final int MAX_CHILDREN = 100;

    /** The tree parameters (uts_params), with the reference defaults. */
    static final class Params {
        int type = GEO;                     /* -t */
        double b0 = 4.0;                    /* -b root branching factor */
        int rootSeed = 0;                   /* -r */
        int shapeFn = LINEAR;               /* -a GEO shape */
        int genMx = 6;                      /* -d GEO/BALANCED depth parameter */
        double nonLeafProb = 15.0 / 64.0;   /* -q BIN: probability of a non-leaf */
        int nonLeafBf = 4;                  /* -m BIN: children of a non-leaf */
        double shiftDepth = 0.5;            /* -f HYBRID: GEO above shiftDepth * genMx */
        int granularity = 1;                /* -g SHA-1 evaluations per child */
        long expectedNodes = 0;             /* -c, 0 if absent */
    }

    static final class Node {
        final int type, height;
        final byte[] state;

        Node(int type, int height, byte[] state) {
            this.type = type;
            this.height = height;
            this.state = state;
        }
    }

    /* ---- the splittable RNG ---- */

    /** A thread's SHA-1 engine (MessageDigest is not thread-safe) and its
     *  message buffer. */
    static final class Hasher {
        final MessageDigest md;
        final byte[] msg = new byte[24];

        Hasher() {
            try {
                md = MessageDigest.getInstance("SHA-1");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("this JVM has no SHA-1", e);
            }
        }

        /** SHA-1 of the first len bytes of msg. */
        byte[] hash(int len) {
            md.update(msg, 0, len);
            return md.digest();
        }

        /** Child state: SHA-1 of the parent's state and the spawn number,
         *  big-endian. */
        byte[] spawn(byte[] parent, int spawnNumber) {
            System.arraycopy(parent, 0, msg, 0, 20);
            msg[20] = (byte) (spawnNumber >>> 24);
            msg[21] = (byte) (spawnNumber >>> 16);
            msg[22] = (byte) (spawnNumber >>> 8);
            msg[23] = (byte) spawnNumber;
            return hash(24);
        }
    }

    private static final ThreadLocal<Hasher> HASHER = ThreadLocal.withInitial(Hasher::new);

    /** Root state: SHA-1 of 16 zero bytes and the seed, big-endian. */
    static byte[] rngInit(int seed) {
        Hasher h = HASHER.get();
        java.util.Arrays.fill(h.msg, (byte) 0);
        h.msg[16] = (byte) (seed >>> 24);
        h.msg[17] = (byte) (seed >>> 16);
        h.msg[18] = (byte) (seed >>> 8);
        h.msg[19] = (byte) seed;
        return h.hash(20);
    }

    /** The last four state bytes, big-endian, sign bit cleared. */
    static int rngRand(byte[] s) {
        return ((s[16] & 0xff) << 24 | (s[17] & 0xff) << 16 | (s[18] & 0xff) << 8 | (s[19] & 0xff))
               & 0x7fffffff;
    }

    static double rngToProb(int n) {
        return (double) n / 2147483648.0;
    }

    /* ---- tree shape (operation order as uts_tree.c: the tree depends on it) ---- */

    static int numChildrenBin(Params p, Node node) {
        double d = rngToProb(rngRand(node.state));
        return d < p.nonLeafProb ? p.nonLeafBf : 0;
    }

    static int numChildrenGeo(Params p, Node node) {
        double b0 = p.b0, bi = b0;
        int depth = node.height;
        if (depth > 0) {
            switch (p.shapeFn) {
            case EXPDEC:
                bi = b0 * Math.pow((double) depth, -Math.log(b0) / Math.log((double) p.genMx));
                break;
            case CYCLIC:
                if ((double) depth > 5.0 * (double) p.genMx)
                    bi = 0.0;
                else
                    bi = Math.pow(b0, Math.sin(2.0 * 3.141592653589793 * (double) depth
                                               / (double) p.genMx));
                break;
            case FIXED:
                bi = depth < p.genMx ? b0 : 0;
                break;
            default: /* LINEAR */
                bi = b0 * (1.0 - (double) depth / (double) p.genMx);
                break;
            }
        }
        /* Inverse CDF of the geometric distribution with mean bi. */
        double prob = 1.0 / (1.0 + bi);
        double u = rngToProb(rngRand(node.state));
        double n = Math.floor(Math.log(1 - u) / Math.log(1 - prob));
        if (!(n >= 0.0))
            return 0; /* NaN or negative: a leaf */
        if (n > (double) Integer.MAX_VALUE)
            return Integer.MAX_VALUE; /* capped below */
        return (int) n;
    }

    static int numChildren(Params p, Node node) {
        int n = 0;
        switch (p.type) {
        case BIN:
            n = node.height == 0 ? (int) Math.floor(p.b0) : numChildrenBin(p, node);
            break;
        case GEO:
            n = numChildrenGeo(p, node);
            break;
        case HYBRID:
            n = node.height < p.shiftDepth * p.genMx ? numChildrenGeo(p, node)
                                                     : numChildrenBin(p, node);
            break;
        default: /* BALANCED */
            if (node.height < p.genMx)
                n = (int) p.b0;
            break;
        }
        if (node.height == 0 && node.type == BIN)
            n = Math.min(n, (int) Math.ceil(p.b0));
        else if (p.type != BALANCED)
            n = Math.min(n, MAX_CHILDREN);
        return n;
    }

    static Node root(Params p) {
        return new Node(p.type, 0, rngInit(p.rootSeed));
    }

    static Node child(Params p, Node parent, int i, Hasher hasher) {
        int type = p.type;
        if (p.type == HYBRID)
            type = parent.height < p.shiftDepth * p.genMx ? GEO : BIN;
        byte[] state = hasher.spawn(parent.state, i);
        /* -g repeats the same hash to make nodes costlier. */
        for (int j = 1; j < p.granularity; j++)
            state = hasher.spawn(parent.state, i);
        return new Node(type, parent.height + 1, state);
    }

    /* ---- the search ---- */

    /** The search of the subtree under child `index` of `parent` (or of
     *  `node` itself for the root).  The task makes its own node (one
     *  SHA-1) when it starts, as uts-weft's tasks do; the counts are kept
     *  in the task rather than returned boxed. */
    static final class Search extends RecursiveAction {
        final Params p;
        final Node parent;
        final int index;
        Node node;
        long nodes, leaves, maxDepth;

        Search(Params p, Node parent, int index) {
            this.p = p;
            this.parent = parent;
            this.index = index;
        }

        Search(Params p, Node root) {
            this(p, null, 0);
            this.node = root;
        }

        @Override
        protected void compute() {
            Node me = node != null ? node : child(p, parent, index, HASHER.get());
            int n = numChildren(p, me);
            nodes = 1;
            leaves = n == 0 ? 1 : 0;
            maxDepth = me.height;
            if (n == 0)
                return;
            Search[] kids = new Search[n];
            for (int i = 0; i < n; i++)
                kids[i] = new Search(p, me, i);
            /* Fork all but the last, compute that one here, join the rest
             * newest first (usually popped back and run here). */
            for (int i = 0; i < n - 1; i++)
                kids[i].fork();
            kids[n - 1].compute();
            add(kids[n - 1]);
            for (int i = n - 2; i >= 0; i--) {
                kids[i].join();
                add(kids[i]);
            }
        }

        private void add(Search sub) {
            nodes += sub.nodes;
            leaves += sub.leaves;
            maxDepth = Math.max(maxDepth, sub.maxDepth);
        }
    }

    /* ---- sample trees, command line ---- */

    record Sample(String name, String flags, long nodes, long leaves, long maxDepth) {}

    /** The published sample trees (uts_tree.c's table). */
    static final Sample[] SAMPLES = {
        new Sample("T1", "-t 1 -a 3 -d 10 -b 4 -r 19", 4130071, 3305118, 10),
        new Sample("T5", "-t 1 -a 0 -d 20 -b 4 -r 34", 4147582, 2181318, 20),
        new Sample("T2", "-t 1 -a 2 -d 16 -b 6 -r 502", 4117769, 2342762, 81),
        new Sample("T3", "-t 0 -b 2000 -q 0.124875 -m 8 -r 42", 4112897, 3599034, 1572),
        new Sample("T4", "-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4", 4132453, 3108986, 134),
        new Sample("T1L", "-t 1 -a 3 -d 13 -b 4 -r 29", 102181082, 81746377, 13),
        new Sample("T2L", "-t 1 -a 2 -d 23 -b 7 -r 220", 96793510, 53791152, 67),
        new Sample("T3L", "-t 0 -b 2000 -q 0.200014 -m 5 -r 7", 111345631, 89076904, 17844),
        new Sample("T1XL", "-t 1 -a 3 -d 15 -b 4 -r 29", 1635119272, 1308100063, 15),
    };

    /** JIT warm-up tree (untimed), whatever the input: a HYBRID tree, so
     *  both the GEO and the BIN child counts get compiled; 776,812 nodes,
     *  leaves 584,190, depth 139 (uts-seq agrees). */
    static final String WARM_UP_FLAGS = "-t 2 -a 0 -d 13 -b 6 -r 1 -q 0.234375 -m 4";
    static final long WARM_UP_NODES = 776812;

    /** Same tree: compares only the parameters the tree type reads. */
    static boolean sameTree(Params a, Params b) {
        if (a.type != b.type || a.b0 != b.b0 || a.rootSeed != b.rootSeed)
            return false;
        boolean geo = a.type == GEO || a.type == HYBRID;
        boolean bin = a.type == BIN || a.type == HYBRID;
        if (geo && (a.shapeFn != b.shapeFn || a.genMx != b.genMx))
            return false;
        if (bin && (a.nonLeafProb != b.nonLeafProb || a.nonLeafBf != b.nonLeafBf))
            return false;
        if (a.type == HYBRID && a.shiftDepth != b.shiftDepth)
            return false;
        return !(a.type == BALANCED && a.genMx != b.genMx);
    }

    static Sample findSample(Params p) {
        for (Sample s : SAMPLES)
            if (sameTree(p, parse(new Prog("uts-sample-table"), s.flags().split(" "))))
                return s;
        return null;
    }

    private static int intArg(Prog prog, String flag, String v, long lo, long hi) {
        Long x = Prog.parseCLong(v);
        if (x == null || x < lo || x > hi)
            prog.badArg(flag + " needs an integer in [" + lo + ", " + hi + "], got '" + v + "'");
        return (int) (long) x;
    }

    /** 2147483647, not 2.147483647E9. */
    private static String plain(double x) {
        return new java.math.BigDecimal(x).stripTrailingZeros().toPlainString();
    }

    private static double realArg(Prog prog, String flag, String v, double lo, double hi) {
        Double x = Prog.parseCDouble(v);
        if (x == null || !(x >= lo && x <= hi))
            prog.badArg(flag + " needs a number in [" + plain(lo) + ", " + plain(hi) + "], got '"
                        + v + "'");
        return x;
    }

    /** The flags of uts-seq (-t -b -r -a -d -q -m -f -g -c, each with a
     *  value, last wins). */
    static Params parse(Prog prog, String[] args) {
        Params p = new Params();
        for (int i = 0; i < args.length; i += 2) {
            String flag = args[i];
            if (flag.equals("-h") || flag.equals("--help")) {
                System.out.println("usage: " + prog.name + " [-w workers] [-t type] [-b b_0]"
                                   + " [-r seed] [-a shape] [-d depth] [-q prob] [-m kids]"
                                   + " [-f fraction] [-g granularity] [-c expected-nodes]");
                System.out.println("  the flags of uts-seq; sample trees are checked"
                                   + " automatically:");
                for (Sample s : SAMPLES)
                    System.out.printf("  %-5s %-40s %d nodes%n", s.name(), s.flags(), s.nodes());
                System.exit(0);
            }
            if (flag.length() != 2 || flag.charAt(0) != '-'
                || "tbradqmfgc".indexOf(flag.charAt(1)) < 0)
                prog.badArg("unknown argument '" + flag + "'");
            if (i + 1 >= args.length)
                prog.badArg(flag + " needs a value");
            String v = args[i + 1];
            long intMax = Integer.MAX_VALUE;
            switch (flag.charAt(1)) {
            case 't': p.type = intArg(prog, flag, v, BIN, BALANCED); break;
            case 'b': p.b0 = realArg(prog, flag, v, 0.0, intMax); break;
            case 'r': p.rootSeed = intArg(prog, flag, v, 0, intMax); break;
            case 'a': p.shapeFn = intArg(prog, flag, v, LINEAR, FIXED); break;
            case 'd': p.genMx = intArg(prog, flag, v, 0, intMax); break;
            case 'q': p.nonLeafProb = realArg(prog, flag, v, 0.0, 1.0); break;
            case 'm': p.nonLeafBf = intArg(prog, flag, v, 0, intMax); break;
            case 'f': p.shiftDepth = realArg(prog, flag, v, 0.0, 1.0); break;
            case 'g': p.granularity = intArg(prog, flag, v, 1, 1000000); break;
            default: /* 'c' */
                Long c = v.matches("[0-9]+") ? Prog.parseCLong(v) : null;
                if (c == null || c == 0)
                    prog.badArg(flag + " needs a positive node count, got '" + v + "'");
                p.expectedNodes = c;
                break;
            }
        }
        if ((p.type == GEO || p.type == HYBRID) && p.genMx < 1)
            prog.badArg("GEO and HYBRID trees need -d >= 1, got " + p.genMx);
        return p;
    }

    static Search search(ForkJoinPool pool, Params p) {
        Search s = new Search(p, root(p));
        pool.invoke(s);
        return s;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        Params p = parse(prog, args);
        Sample sample = findSample(p);
        if (sample != null)
            System.out.println("Sample tree: " + sample.name() + " (published: " + sample.nodes()
                               + " nodes, " + sample.leaves() + " leaves, depth "
                               + sample.maxDepth() + ")");

        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> {
            Search warm = search(pool, parse(prog, WARM_UP_FLAGS.split(" ")));
            Prog.check(warm.nodes == WARM_UP_NODES,
                       () -> "warm-up tree: " + warm.nodes + " nodes, expected " + WARM_UP_NODES);
        });

        double t0 = Prog.now();
        Search r = search(pool, p);
        double seconds = Prog.now() - t0;

        System.out.println("Nodes: " + r.nodes);
        System.out.println("Leaves: " + r.leaves);
        System.out.println("Max depth: " + r.maxDepth);
        Prog.printTime(seconds);
        if (p.expectedNodes != 0)
            Prog.check(r.nodes == p.expectedNodes,
                       () -> r.nodes + " nodes, expected " + p.expectedNodes + " (-c)");
        if (sample != null) {
            Prog.check(r.nodes == sample.nodes(),
                       () -> r.nodes + " nodes, sample tree " + sample.name() + " has "
                             + sample.nodes());
            Prog.check(r.leaves == sample.leaves(),
                       () -> r.leaves + " leaves, sample tree " + sample.name() + " has "
                             + sample.leaves());
            Prog.check(r.maxDepth == sample.maxDepth(),
                       () -> "max depth " + r.maxDepth + ", sample tree " + sample.name() + " has "
                             + sample.maxDepth());
        }
    }
}
