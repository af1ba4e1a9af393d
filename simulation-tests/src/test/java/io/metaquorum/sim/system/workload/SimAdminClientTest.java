package io.metaquorum.sim.system.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.retry.AdminOptions;
import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.linearizability.History;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated client's decisions: by handling class, per item, under a deadline; each attempt in the history. */
class SimAdminClientTest {
    private static final AdminOptions OPTIONS = new AdminOptions(100, 10, 40);
    private final History<AdminInput, AdminOutput> history = new History<>();
    private final SimAdminClient client = new SimAdminClient(7, List.of(1, 2, 3), OPTIONS, 1_000, 1, history);

    private static AdminCall createTwo() {
        return new AdminCall.CreateTopics(new CreateTopicsRequest(List.of(Topic.of("a", 1, 1), Topic.of("b", 1, 1)),
                false));
    }

    private static ItemResult result(String item, ErrorCode code) {
        return new ItemResult(item, code, new AdminOutput.WriteResult(code, code == ErrorCode.NONE ? "id-" + item : null));
    }

    @Test
    void aRefreshMovesToTheNamedControllerAndResendsOnlyTheOpenItems() {
        client.start(createTwo(), 0);
        SimAdminClient.Attempt first = client.poll(0).orElseThrow();
        assertEquals(1, first.nodeId());
        client.onAnswer(first.id(), new AdminAnswer(List.of(result("a", ErrorCode.NONE),
                result("b", ErrorCode.NOT_CONTROLLER)), 3), 5);
        assertTrue(client.poll(14).isEmpty(), "waits the initial backoff");
        SimAdminClient.Attempt second = client.poll(15).orElseThrow();
        assertEquals(3, second.nodeId());
        assertEquals(List.of("b"), second.call().items());
        client.onAnswer(second.id(), new AdminAnswer(List.of(result("b", ErrorCode.TOPIC_ALREADY_EXISTS)), 3), 20);
        SimAdminClient.Finished done = client.takeFinished(20).orElseThrow();
        assertEquals(List.of(new ReferenceModel.FinalItem("a", ErrorCode.NONE, true, false),
                new ReferenceModel.FinalItem("b", ErrorCode.TOPIC_ALREADY_EXISTS, true, true)), done.items());
        assertEquals(3, history.size(), "a and b, then b again");
        assertFalse(history.operations().get(1).outcomeKnown(), "NOT_CONTROLLER may still commit");
        assertTrue(client.idle());
    }

    @Test
    void retriableCodesBackOffDoublingOnTheSameNode() {
        client.start(createTwo(), 0);
        long now = 0;
        long[] waits = new long[3];
        for (int i = 0; i < 3; i++) {
            SimAdminClient.Attempt attempt = client.poll(now).orElseThrow();
            assertEquals(1, attempt.nodeId());
            client.onAnswer(attempt.id(), new AdminAnswer(List.of(result("a", ErrorCode.REQUEST_TIMED_OUT),
                    result("b", ErrorCode.INVALID_CONFIG)), 1), now);
            waits[i] = client.nextDeadlineMs() - now;
            now = client.nextDeadlineMs();
        }
        assertEquals(10, waits[0]);
        assertEquals(20, waits[1]);
        assertEquals(40, waits[2]);
    }

    @Test
    void noAnswerTimesOutTheAttemptAndTheCallGivesUpAtItsDeadline() {
        client.start(createTwo(), 0);
        long now = 0;
        int attempts = 0;
        while (!client.idle()) {
            if (client.poll(now).isPresent()) {
                attempts++;
            }
            client.takeFinished(now).ifPresent(done -> {
                assertEquals(ErrorCode.REQUEST_TIMED_OUT, done.items().get(0).code());
                assertFalse(done.items().get(0).definite());
            });
            now++;
        }
        assertTrue(now <= 1_001 && attempts >= 5, "ended at " + now + " after " + attempts + " attempts");
        assertTrue(history.operations().stream().noneMatch(op -> op.outcomeKnown()));
    }

    @Test
    void aLateAnswerToATimedOutAttemptIsIgnored() {
        client.start(createTwo(), 0);
        SimAdminClient.Attempt first = client.poll(0).orElseThrow();
        client.poll(100);
        client.onAnswer(first.id(), new AdminAnswer(List.of(result("a", ErrorCode.NONE), result("b", ErrorCode.NONE)),
                1), 101);
        assertTrue(client.takeFinished(101).isEmpty());
        assertEquals(2, history.operations().stream().filter(op -> !op.outcomeKnown()).count());
    }

    @Test
    void aCallWhoseItemsAreAllFinalSendsNothingMoreAndFinishesAtOnce() {
        client.start(createTwo(), 0);
        SimAdminClient.Attempt first = client.poll(0).orElseThrow();
        client.onAnswer(first.id(), new AdminAnswer(List.of(result("a", ErrorCode.REQUEST_TIMED_OUT),
                result("b", ErrorCode.NONE)), 1), 3);
        SimAdminClient.Attempt second = client.poll(client.nextDeadlineMs()).orElseThrow();
        long answeredAt = client.nextDeadlineMs() - 1;
        client.onAnswer(second.id(), new AdminAnswer(List.of(result("a", ErrorCode.NONE)), 1), answeredAt);
        // The retry time set after the first answer has passed: an empty attempt must not go out.
        assertTrue(client.poll(answeredAt).isEmpty(), "no attempt without open items");
        SimAdminClient.Finished done = client.takeFinished(answeredAt).orElseThrow();
        assertEquals(answeredAt, done.endMs());
        assertEquals(3, history.size(), "a and b, then a again; nothing for an empty attempt");
    }
}
