package io.metaquorum.sim.workload;

import java.util.EnumSet;
import java.util.Locale;
import java.util.stream.Collectors;

/** The faults a seed can draw, by the names {@code --faults} takes. */
public enum FaultKind {
    /** Latency tails and spikes, some longer than the request timeout. */
    DELAY("delay"),
    /** Messages vanish. */
    LOSS("loss"),
    /** Messages arrive twice. */
    DUPLICATE("duplicate"),
    /** Later messages overtake earlier ones on the same link. */
    REORDER("reorder"),
    /** Symmetric partitions: a node isolated, the leader isolated, the cluster split. */
    PARTITION("partition"),
    /** One-way partitions: a leader that can send but not receive, and the reverse; random cut links. */
    ONE_WAY("one-way"),
    /** kill -9 and restart later; unsynced writes are lost. */
    CRASH("crash"),
    /** Graceful shutdown (a leader resigns first) and restart. */
    SHUTDOWN("shutdown"),
    /** Leader handoff: the leader resigns, preferring the most caught-up voter. */
    RESIGN("resign"),
    /**
     * A node's disk is replaced by an empty one, formatted with a new directory id (at
     * kraft.version 1 at any moment, as long as every voter set keeps a majority of intact
     * disks; at kraft.version 0 at most one voter at a time).
     */
    WIPE("wipe"),
    /** Crashes leave a prefix of the unsynced writes, the first lost one torn. */
    TORN_WRITE("torn-write"),
    /** Disk writes fail; the node stops and is restarted later. */
    WRITE_ERROR("write-error"),
    /** fsync stalls. */
    SLOW_DISK("slow-disk"),
    /** Clock skew, drift and forward jumps per node. */
    CLOCK("clock"),
    /** Observers join during the run, with empty disks. */
    JOIN("join"),
    /**
     * A process frozen (SIGSTOP: a long GC pause, a VM stall), the leader with the drawn
     * probability: nothing in or out, no connection reset, its timers stopped; resumed later
     * with its clock showing the time that passed.
     */
    PAUSE("pause"),
    /** A node, the leader with the drawn probability, cut off silently both ways: its calls and calls to it time out. */
    BLACK_HOLE("black-hole"),
    /**
     * A node's TLS certificate goes bad (another CA, expired, missing), the leader with the
     * drawn probability: every connection from or to it fails its handshake, fast and visibly
     * ({@code UNREACHABLE}, as a refused connection), while its process runs on; fixed later
     * (rotation).
     */
    BAD_CERTIFICATE("bad-certificate"),
    /**
     * A broker's log dir fills (system mode): creating files and directories in it fails with
     * ENOSPC until space is freed later; the broker takes the log dir offline until it restarts.
     */
    DISK_FULL("disk-full"),
    /**
     * Voter changes (KIP-853, kraft.version 1): an operator replaces a wiped voter in the voter
     * set by its new disk (RemoveVoter of the old directory id, then AddVoter of the new), and
     * now and then removes a healthy voter and adds it back later.
     */
    MEMBERSHIP("membership");

    /** The kinds added after the others: a seed draws them last, so the earlier kinds' draws stay as they were. */
    static final EnumSet<FaultKind> SILENT = EnumSet.of(PAUSE, BLACK_HOLE);
    /** Added after the silent ones, drawn from a stream of its own for the same reason. */
    static final EnumSet<FaultKind> DRAWN_APART = EnumSet.of(PAUSE, BLACK_HOLE, BAD_CERTIFICATE, DISK_FULL,
            MEMBERSHIP);

    private final String cliName;

    FaultKind(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** Parses {@code all}, {@code none} or a comma-separated list of names. */
    public static EnumSet<FaultKind> parseList(String text) {
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        if (trimmed.equals("all")) {
            return EnumSet.allOf(FaultKind.class);
        }
        EnumSet<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        if (trimmed.equals("none") || trimmed.isEmpty()) {
            return kinds;
        }
        for (String name : trimmed.split(",")) {
            kinds.add(byName(name.trim()));
        }
        return kinds;
    }

    public static FaultKind byName(String name) {
        for (FaultKind kind : values()) {
            if (kind.cliName.equals(name)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + name + "'; known: " + allNames());
    }

    public static String allNames() {
        return EnumSet.allOf(FaultKind.class).stream().map(FaultKind::cliName).collect(Collectors.joining(","));
    }

    /** The names of {@code kinds}, comma-separated, or {@code none}. */
    public static String names(EnumSet<FaultKind> kinds) {
        return kinds.isEmpty() ? "none" : kinds.stream().map(FaultKind::cliName).collect(Collectors.joining(","));
    }
}
