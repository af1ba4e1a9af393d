package io.metaquorum.sim.system.node;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.common.time.Time;
import io.metaquorum.node.controller.ControllerRaft;
import java.util.List;

/**
 * The controller's raft port on a simulated node: its appends and resignations go to the
 * node's core through the {@link RaftPort} of the drive that runs the controller's turn (a
 * turn runs only there, after a core call, never inside one), and an append's outcome is
 * known at once.
 */
public final class SimControllerRaft implements ControllerRaft {
    private final Time time;
    private RaftPort port;

    public SimControllerRaft(Time time) {
        this.time = time;
    }

    /** The port of the drive now running; null once it ended. */
    public void bind(RaftPort drivePort) {
        this.port = drivePort;
    }

    @Override
    public void append(int epoch, List<ByteString> records, AppendOutcome outcome) {
        Invariants.check(port != null, "a controller appended outside its node's drive");
        outcome.done(port.append(epoch, records, time.milliseconds()), null);
    }

    @Override
    public void appendControl(int epoch, List<ByteString> records, AppendOutcome outcome) {
        Invariants.check(port != null, "a controller appended outside its node's drive");
        outcome.done(port.appendControl(epoch, records, time.milliseconds()), null);
    }

    @Override
    public void resign(int epoch) {
        Invariants.check(port != null, "a controller resigned outside its node's drive");
        port.resign(epoch, time.milliseconds());
    }
}
