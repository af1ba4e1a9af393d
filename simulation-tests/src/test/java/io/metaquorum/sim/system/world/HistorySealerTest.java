package io.metaquorum.sim.system.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.linearizability.History;
import org.junit.jupiter.api.Test;

/** An unknown outcome is sealed only once the client gave up on it and the committed log decided it. */
class HistorySealerTest {
    private final History<AdminInput, AdminOutput> history = new History<>();
    private final HistorySealer sealer = new HistorySealer(history);

    @Test
    void anAttemptThatAppendedIsSealedOnceTheCommittedLogPassesItsRecords() {
        int op = history.invoke(0, new AdminInput.DeleteTopic("a"), 0);
        sealer.handled(op, op + 1, 40, 43);
        history.ambiguous(op);
        sealer.committedUpTo(42, 10);
        assertTrue(history.awaitsSeal(op), "offsets up to 43 are not all committed yet");
        sealer.committedUpTo(43, 11);
        assertFalse(history.awaitsSeal(op));
        assertEquals(1, sealer.sealed());
        assertEquals(11, history.operations().get(op).returnMs());
    }

    @Test
    void anAttemptThatAppendedNothingIsSealedAsSoonAsTheClientGivesUp() {
        int op = history.invoke(0, new AdminInput.DeleteTopic("a"), 0);
        sealer.handled(op, op + 1, 40, 40);
        sealer.committedUpTo(0, 5);
        assertFalse(history.awaitsSeal(op), "still in flight: nothing to seal");
        history.ambiguous(op);
        sealer.committedUpTo(0, 6);
        assertEquals(1, sealer.sealed());
    }

    @Test
    void aDefiniteAnswerIsNeverSealed() {
        int op = history.invoke(0, new AdminInput.DeleteTopic("a"), 0);
        sealer.handled(op, op + 1, 40, 41);
        history.complete(op, AdminOutput.WriteResult.ok("id"), 3);
        sealer.committedUpTo(41, 4);
        assertEquals(0, sealer.sealed());
        assertTrue(history.answeredDefinitely(op));
    }
}
