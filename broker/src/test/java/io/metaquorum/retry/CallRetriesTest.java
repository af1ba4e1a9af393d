package io.metaquorum.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The admin client's retry rules, without I/O. */
class CallRetriesTest {
    private static final AdminOptions OPTIONS = new AdminOptions(1_000, 100, 400);

    @Test
    void finalItemsLeaveTheCallAndOnlyRetriableOnesAreSentAgain() {
        CallRetries retries = new CallRetries(List.of("a", "b", "c"), OPTIONS, 0, 10_000);
        List<String> done = retries.onAnswered(Map.of("a", ErrorCode.NONE, "b", ErrorCode.REQUEST_TIMED_OUT,
                "c", ErrorCode.TOPIC_ALREADY_EXISTS));
        assertEquals(List.of("a", "c"), done);
        assertEquals(List.of("b"), retries.open());
        assertTrue(retries.isFinal("a") && retries.isFinal("c") && !retries.isFinal("b"));
        assertEquals(ErrorCode.REQUEST_TIMED_OUT, retries.endCode("b"), "an open item ends with its last retriable code");
    }

    @Test
    void retriableAnswersDoubleTheBackoffUpToItsMaximumAndARefreshWaitsOnlyTheInitialOne() {
        CallRetries retries = new CallRetries(List.of("a"), OPTIONS, 0, 10_000);
        long[] waits = new long[4];
        for (int i = 0; i < waits.length; i++) {
            retries.onAnswered(Map.of("a", ErrorCode.REQUEST_TIMED_OUT));
            waits[i] = retries.retryAtMs(0);
        }
        assertEquals(List.of(100L, 200L, 400L, 400L), List.of(waits[0], waits[1], waits[2], waits[3]));
        retries.onAnswered(Map.of("a", ErrorCode.NOT_CONTROLLER));
        assertTrue(retries.refreshing());
        assertEquals(100, retries.retryAtMs(0));
    }

    @Test
    void anItemWithoutAResultIsAFinalServerErrorAndAFinalRequestErrorEndsTheCall() {
        CallRetries retries = new CallRetries(List.of("a", "b"), OPTIONS, 0, 10_000);
        retries.onAnswered(Map.of("a", ErrorCode.REQUEST_TIMED_OUT));
        assertEquals(ErrorCode.UNKNOWN_SERVER_ERROR, retries.endCode("b"));
        assertTrue(retries.isFinal("b"));
        assertTrue(retries.onAttemptFailed(ErrorClass.REFRESH_AND_RETRY));
        assertFalse(retries.onAttemptFailed(ErrorClass.INVALID_REQUEST_CLASS));
    }

    @Test
    void theCallGivesUpWhenTheBackoffWouldPassTheDeadlineAndAttemptsAreCappedByIt() {
        CallRetries retries = new CallRetries(List.of("a"), OPTIONS, 0, 1_500);
        assertEquals(1_000, retries.attemptTimeoutMs(0));
        assertEquals(500, retries.attemptTimeoutMs(1_000));
        retries.onAnswered(Map.of("a", ErrorCode.REQUEST_TIMED_OUT));
        assertEquals(1_400, retries.retryAtMs(1_300));
        assertEquals(-1, retries.retryAtMs(1_400));
        assertEquals(ErrorCode.REQUEST_TIMED_OUT, new CallRetries(List.of("x"), OPTIONS, 0, 10).endCode("x"),
                "never answered: timed out");
    }
}
