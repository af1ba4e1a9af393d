package io.metaquorum.sim.machine;

import com.google.protobuf.ByteString;
import java.util.List;

/**
 * A replicated state machine as the harness drives it: fed committed records in offset
 * order, written out as records for a snapshot and rebuilt from them. The harness knows
 * nothing else about it, so the controller and the brokers can be plugged in later.
 */
public interface RecordStateMachine {
    /** Applies one committed data record (control records never reach it). */
    void apply(long offset, ByteString record);

    /** The state as records, for a snapshot; {@link #restore} of them gives the same state. */
    List<ByteString> snapshotRecords();

    /** Replaces the whole state by the one the records describe: a snapshot of the log below {@code snapshotOffset}. */
    void restore(long snapshotOffset, List<ByteString> records);

    /** A digest of the state alone (not of its history): equal states, equal digests. */
    long digest();
}
