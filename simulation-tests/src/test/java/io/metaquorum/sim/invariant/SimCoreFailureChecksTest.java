package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CoreFailures;
import io.metaquorum.sim.check.CheckFailure;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.InvariantViolation;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.LeaderChangeRecord;
import org.junit.jupiter.api.Test;

/** What a node's code throws, turned into the run's failure: the core's own checks, and everything else. */
class SimCoreFailureChecksTest {
    @Test
    void anExceptionTheCoreDidNotExpectIsACoreException() {
        CheckFailure failure = CoreFailures.of("node 2", new IllegalStateException("queue full"));
        assertEquals(CoreFailures.EXCEPTION, failure.invariant());
        assertTrue(failure.getMessage().startsWith("core-exception: node 2 threw java.lang.IllegalStateException: "
                + "queue full\n        at "), failure.getMessage());
    }

    @Test
    void aFailedCheckOfTheCoreIsACoreInvariant() {
        InvariantViolation violation = assertThrows(InvariantViolation.class,
                () -> Invariants.check(false, "epoch %d went back", 3));
        CheckFailure failure = CoreFailures.of("node 2 at start", violation);
        assertEquals(CoreFailures.INVARIANT, failure.invariant());
        assertEquals("core-invariant: node 2 at start: " + violation.getMessage(), failure.getMessage());
    }

    @Test
    void aControlBatchMustParse() {
        ControlRecord control = ControlRecord.newBuilder().setLeaderChange(LeaderChangeRecord.newBuilder()
                .setLeaderId(3)).build();
        assertDoesNotThrow(() -> assertEquals(3, InvariantChecker.parseControl(control.toByteString(), 1, 10)
                .getLeaderChange().getLeaderId()));
        CheckFailure failure = assertThrows(CheckFailure.class, () -> InvariantChecker.parseControl(
                ByteString.copyFrom(new byte[] {(byte) 0xFF, 0x7F}), 1, 10));
        assertEquals(CoreFailures.EXCEPTION, failure.invariant(), failure.getMessage());
    }
}
