package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/** One connection's tasks run one at a time in the order given, on a pool the test steps by hand. */
class SerialExecutorTest {
    /** A pool that runs nothing until told, so the test decides every interleaving. */
    private static final class SteppedPool implements java.util.concurrent.Executor {
        private final ArrayDeque<Runnable> submitted = new ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            submitted.add(task);
        }

        void runAll() {
            while (!submitted.isEmpty()) {
                submitted.poll().run();
            }
        }
    }

    @Test
    void tasksRunInOrderAndOnlyOneIsHandedToThePoolAtATime() {
        SteppedPool pool = new SteppedPool();
        SerialExecutor serial = new SerialExecutor(pool);
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int task = i;
            serial.execute(() -> ran.add(task));
        }
        assertEquals(1, pool.submitted.size(), "one drain runs the queue");
        pool.runAll();
        assertEquals(List.of(0, 1, 2, 3, 4), ran);
        serial.execute(() -> ran.add(5));
        assertEquals(1, pool.submitted.size(), "an idle executor hands the pool a new drain");
        pool.runAll();
        assertEquals(List.of(0, 1, 2, 3, 4, 5), ran);
    }

    @Test
    void aTaskGivenWhileAnotherRunsRunsAfterIt() {
        SteppedPool pool = new SteppedPool();
        SerialExecutor serial = new SerialExecutor(pool);
        List<String> ran = new ArrayList<>();
        serial.execute(() -> {
            ran.add("first starts");
            serial.execute(() -> ran.add("second"));
            ran.add("first ends");
        });
        pool.runAll();
        assertEquals(List.of("first starts", "first ends", "second"), ran);
    }

    @Test
    void aPoolThatRefusesLeavesTheExecutorUsable() {
        SteppedPool pool = new SteppedPool();
        boolean[] refuse = {true};
        SerialExecutor serial = new SerialExecutor(task -> {
            if (refuse[0]) {
                throw new RejectedExecutionException("closing");
            }
            pool.execute(task);
        });
        assertThrows(RejectedExecutionException.class, () -> serial.execute(() -> { }));
        refuse[0] = false;
        List<Integer> ran = new ArrayList<>();
        serial.execute(() -> ran.add(1));
        pool.runAll();
        assertEquals(List.of(1), ran);
    }
}
