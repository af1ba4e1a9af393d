package io.metaquorum.sim.cli;

import io.metaquorum.sim.BrokenVariant;
import io.metaquorum.sim.SimulationOptions;
import io.metaquorum.sim.workload.FaultKind;
import java.util.EnumSet;

/**
 * The command line of {@code mq-simulate}, parsed. Throws {@link IllegalArgumentException}
 * with a one-line message naming the bad argument.
 */
record SimulateArguments(long firstSeed, long seedCount, SimulationOptions template, String timelineFile,
                         boolean verbose, String debugEvents, boolean help) {
    static final String USAGE = String.join("\n",
            "usage: mq-simulate [--seed S | --seeds N [--base-seed B]] [--events K] [--faults LIST|all|none]",
            "                   [--nodes V] [--observers O] [--system] [--timeline FILE.html] [--verbose] [--help]",
            "",
            "Deterministic fault-injection runs of the raft quorum. Each run prints",
            "  seed S events E trace HASH",
            "identical for the same seed; each failure prints the violated invariant, the event",
            "index and the command that replays it. The last line is 'N passed, N failed'.",
            "",
            "  --seed S          run seed S only",
            "  --seeds N         run N seeds: B, B+1, ... (default: 100 seeds from 1)",
            "  --base-seed B     first seed of --seeds (default 1)",
            "  --events K        events in the safety phase of each run (default "
                    + SimulationOptions.DEFAULT_EVENTS + "); a liveness phase follows",
            "  --faults LIST     faults allowed, comma-separated, or all (each seed draws a subset) or none",
            "                    (default all); known: " + FaultKind.allNames(),
            "  --nodes V         voters, 1-9 (default 3)",
            "  --observers O     observers, 0-9 (default 2; 3 with --system)",
            "  --system          voters run the real controller, observers the real broker over a simulated",
            "                    file system, admin clients run a seeded workload; the system invariants",
            "                    run after every event and the admin history is checked at the end",
            "  --timeline FILE   write one run as a self-contained HTML timeline: the --seed run, or with",
            "                    --seeds the first failing run (else the first run)",
            "  --broken VARIANT  switch on a deliberately broken behaviour (checker self-test):",
            "                    vote-not-persisted, hw-over-old-epoch, skip-truncation, ack-before-sync,",
            "                    pre-vote-bumps-epoch, pre-vote-livelock, wiped-voter-votes; with --system:",
            "                    reply-before-commit,",
            "                    fenced-leader-kept, stray-id-unchecked, stale-read, replay-twice,",
            "                    snapshot-keeps-deleted, refusal-before-commit",
            "  --verbose         print each run's fault mix and counters",
            "  --debug-events A-B  print events A to B of each run with every node's status and deliveries",
            "  --help            this text");

    static SimulateArguments parse(String[] args) {
        Long seed = null;
        long seeds = 100;
        long baseSeed = 1;
        long events = SimulationOptions.DEFAULT_EVENTS;
        String faults = "all";
        int nodes = 3;
        Integer observers = null;
        boolean system = false;
        String timeline = null;
        boolean verbose = false;
        String debugEvents = null;
        BrokenVariant variant = BrokenVariant.NONE;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            switch (flag) {
                case "--help", "-h" -> {
                    return new SimulateArguments(0, 0, null, null, false, null, true);
                }
                case "--verbose" -> verbose = true;
                case "--debug-events" -> debugEvents = value(args, ++i, flag);
                case "--seed" -> seed = parseLong(flag, value(args, ++i, flag));
                case "--seeds" -> seeds = parseLong(flag, value(args, ++i, flag));
                case "--base-seed" -> baseSeed = parseLong(flag, value(args, ++i, flag));
                case "--events" -> events = parseLong(flag, value(args, ++i, flag));
                case "--faults" -> faults = value(args, ++i, flag);
                case "--nodes" -> nodes = (int) parseLong(flag, value(args, ++i, flag));
                case "--observers" -> observers = (int) parseLong(flag, value(args, ++i, flag));
                case "--system" -> system = true;
                case "--timeline" -> timeline = value(args, ++i, flag);
                case "--broken" -> variant = BrokenVariant.byName(value(args, ++i, flag));
                default -> throw new IllegalArgumentException("unknown argument '" + flag + "'; see --help");
            }
        }
        if (seeds < 1) {
            throw new IllegalArgumentException("--seeds must be at least 1");
        }
        if (system && variant != BrokenVariant.NONE && !variant.systemLayer()) {
            throw new IllegalArgumentException("--broken " + variant.cliName() + " breaks the raft layer: drop --system");
        }
        if (!system && variant.systemLayer()) {
            throw new IllegalArgumentException("--broken " + variant.cliName() + " breaks the system layer: add --system");
        }
        EnumSet<FaultKind> kinds = FaultKind.parseList(faults);
        boolean swarm = faults.trim().equalsIgnoreCase("all");
        SimulationOptions template = new SimulationOptions(seed == null ? baseSeed : seed, events, kinds, swarm, nodes,
                observers == null ? (system ? 3 : 2) : observers, variant, false, system);
        return new SimulateArguments(seed == null ? baseSeed : seed, seed == null ? seeds : 1, template, timeline,
                verbose, debugEvents, false);
    }

    private static String value(String[] args, int index, String flag) {
        if (index >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value; see --help");
        }
        return args[index];
    }

    private static long parseLong(String flag, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " takes a number, got '" + text + "'");
        }
    }
}
