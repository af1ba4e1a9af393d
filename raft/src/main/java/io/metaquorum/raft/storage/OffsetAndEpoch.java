package io.metaquorum.raft.storage;

/**
 * A log position and the epoch of the record just before it. Also names a snapshot:
 * a snapshot {@code (offset, epoch)} holds every record below {@code offset}, and the
 * last of them has epoch {@code epoch}.
 */
public record OffsetAndEpoch(long offset, int epoch) implements Comparable<OffsetAndEpoch> {
    public static final OffsetAndEpoch ZERO = new OffsetAndEpoch(0, 0);

    @Override
    public int compareTo(OffsetAndEpoch other) {
        int byEpoch = Integer.compare(epoch, other.epoch);
        return byEpoch != 0 ? byEpoch : Long.compare(offset, other.offset);
    }
}
