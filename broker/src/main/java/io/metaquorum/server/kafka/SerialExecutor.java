package io.metaquorum.server.kafka;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Runs one connection's tasks one at a time, in the order given, on a shared pool: a client's
 * pipelined writes (a create, then a delete of the same topic) reach the controller in the
 * order it sent them, as they would if Kafka's broker served them one by one, while other
 * connections' tasks use the pool's other threads.
 *
 * <p>Thread use: {@link #execute} from any thread.
 */
final class SerialExecutor implements Executor {
    private final Executor pool;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean running;

    SerialExecutor(Executor pool) {
        this.pool = pool;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (queue) {
            queue.add(task);
            if (running) {
                return;
            }
            running = true;
        }
        try {
            pool.execute(this::drain);
        } catch (RuntimeException e) {
            synchronized (queue) {
                queue.clear();
                running = false;
            }
            throw e;
        }
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (queue) {
                next = queue.poll();
                if (next == null) {
                    running = false;
                    return;
                }
            }
            next.run();
        }
    }
}
