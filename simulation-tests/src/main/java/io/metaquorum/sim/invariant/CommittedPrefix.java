package io.metaquorum.sim.invariant;

/** What is known to be committed: offsets {@code [0, committedEndOffset())} and their epochs. */
public interface CommittedPrefix {
    long committedEndOffset();

    /** The epoch of the committed record at {@code offset} (below {@link #committedEndOffset()}). */
    int committedEpochAt(long offset);
}
