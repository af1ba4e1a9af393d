package io.metaquorum.sim.machine;

import com.google.protobuf.ByteString;
import java.util.random.RandomGenerator;

/**
 * A kind of state machine and the client records that feed it. Each client record
 * carries a unique append id so the checkers can follow every acknowledged append.
 */
public interface StateMachineModel {
    String name();

    RecordStateMachine create();

    /** A client record carrying {@code appendId}, its content drawn from {@code random}. */
    ByteString clientRecord(long appendId, RandomGenerator random);

    /** The append id a record carries, or -1 if it carries none. */
    long appendIdOf(ByteString record);
}
