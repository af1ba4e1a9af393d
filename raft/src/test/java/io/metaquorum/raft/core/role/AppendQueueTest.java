package io.metaquorum.raft.core.role;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.InvariantViolation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AppendQueueTest {

    private static List<ByteString> records(String prefix, int count, int bytesEach) {
        List<ByteString> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String tag = prefix + i;
            records.add(ByteString.copyFromUtf8(tag + "x".repeat(Math.max(0, bytesEach - tag.length()))));
        }
        return records;
    }

    @Test
    void anAppendThatDoesNotFitTheRestOfABatchWaitsWholeForTheNext() {
        AppendQueue queue = new AppendQueue();
        List<ByteString> first = records("a", 3, 10);
        List<ByteString> second = records("b", 3, 10);
        queue.add(first, 1);
        queue.add(second, 2);
        // Four records would fit by count, but not the second append whole.
        assertEquals(first, queue.take(4, 1000));
        assertEquals(second, queue.take(4, 1000));
        assertTrue(queue.isEmpty());
    }

    @Test
    void theByteLimitAlsoKeepsAppendsWhole() {
        AppendQueue queue = new AppendQueue();
        queue.add(records("a", 2, 10), 1);
        queue.add(records("b", 2, 10), 1);
        assertEquals(2, queue.take(100, 39).size());
        assertEquals(2, queue.take(100, 39).size());
    }

    @Test
    void appendsThatFitTogetherShareABatch() {
        AppendQueue queue = new AppendQueue();
        queue.add(records("a", 2, 10), 1);
        queue.add(records("b", 1, 10), 2);
        queue.add(records("c", 2, 10), 3);
        assertEquals(5, queue.size());
        assertEquals(50, queue.queuedBytes());
        assertEquals(1, queue.oldestQueuedMs());
        assertEquals(3, queue.take(3, 1000).size());
        assertEquals(2, queue.size());
        assertEquals(20, queue.queuedBytes());
        assertEquals(3, queue.oldestQueuedMs());
        assertEquals(2, queue.take(3, 1000).size());
        assertEquals(-1, queue.oldestQueuedMs());
        assertEquals(List.of(), queue.take(3, 1000));
    }

    @Test
    void anAppendLargerThanABatchIsAnInvariantViolation() {
        AppendQueue queue = new AppendQueue();
        queue.add(records("a", 5, 10), 1);
        assertThrows(InvariantViolation.class, () -> queue.take(4, 1000));
    }

    @Test
    void anEmptyAppendIsAnInvariantViolation() {
        assertThrows(InvariantViolation.class, () -> new AppendQueue().add(List.of(), 1));
    }
}
