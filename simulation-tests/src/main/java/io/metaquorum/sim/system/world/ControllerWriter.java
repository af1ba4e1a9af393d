package io.metaquorum.sim.system.world;

import com.google.protobuf.Message;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.retry.ErrorHandling;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A client that sends one kind of idempotent write straight to the controllers
 * ({@link AclWriter}, {@link ScramWriter}): one write at a time over {@link SystemRpc}, a random
 * think time apart, while the admin clients run. A write without a definite answer is sent
 * again, to the controller the answer named or the next node, at most {@link #ATTEMPTS_MAX}
 * times; its answers are judged where the controller gives them.
 *
 * @param <C> the workload's call
 * @param <R> the write's answer
 */
final class ControllerWriter<C, R extends Message> {
    private static final long THINK_MEAN_MS = 1_000;
    private static final int ATTEMPTS_MAX = 5;
    private static final long RETRY_BACKOFF_MS = 100;
    private static final long ATTEMPT_TIMEOUT_MS = 3_000;

    /** What a kind of write is: its calls, how a controller takes one, and how its answer reads. */
    interface Kind<C, R> {
        /** The workload's next call, drawn from the stream the writer gave it. */
        Supplier<C> workload(Random random);

        /** Hands {@code call} to {@code controller}, which answers through {@code reply}. */
        void handle(ControllerRole controller, C call, Consumer<R> reply);

        AdminResponseHeader header(R response);

        /** The header's code, else the first entry's (a write answered entry by entry). */
        ErrorCode code(R response);
    }

    private final SystemWorld world;
    private final AdminDriver driver;
    private final EventScheduler scheduler;
    private final Random random;
    private final Kind<C, R> kind;
    private final Supplier<C> workload;
    private final List<Integer> controllers;
    /** Whether the admin clients still start calls: the writer stops with them. */
    private final BooleanSupplier accepting;
    private int node;
    private boolean busy;
    private long sent;
    private long written;
    private long denied;
    private long gaveUp;

    ControllerWriter(SystemWorld world, AdminDriver driver, Random random, List<Integer> controllers,
                     BooleanSupplier accepting, Kind<C, R> kind) {
        this.world = world;
        this.driver = driver;
        this.scheduler = world.scheduler();
        this.random = random;
        this.kind = kind;
        this.workload = kind.workload(new Random(random.nextLong()));
        this.controllers = List.copyOf(controllers);
        this.accepting = accepting;
    }

    /** Starts writing (again), unless a write is under way. */
    void start() {
        if (!busy) {
            busy = true;
            scheduleNext();
        }
    }

    private void scheduleNext() {
        long think = 1 + (long) (-THINK_MEAN_MS * Math.log(1 - random.nextDouble()));
        scheduler.scheduleAfter(think, EventKind.CLIENT, SystemRpc.CLIENT, () -> {
            if (accepting.getAsBoolean()) {
                send(workload.get(), 1);
            } else {
                busy = false;
            }
        });
    }

    private void send(C call, int attempt) {
        sent++;
        int to = controllers.get(node % controllers.size());
        AdminDriver.AttemptOps ops = AdminDriver.AttemptOps.outsideHistory();
        boolean[] done = {false};
        world.rpc().<R>call(SystemRpc.CLIENT, () -> true, to, (callee, reply) -> {
            if (callee.role() instanceof ControllerRole controller) {
                driver.runAttempt(ops, () -> kind.handle(controller, call, reply));
                callee.nudge();
            }
        }, response -> finish(done, call, attempt, response), () -> finish(done, call, attempt, null));
        scheduler.scheduleAfter(ATTEMPT_TIMEOUT_MS, EventKind.CLIENT, SystemRpc.CLIENT,
                () -> finish(done, call, attempt, null));
    }

    private void finish(boolean[] done, C call, int attempt, R response) {
        if (done[0]) {
            return;
        }
        done[0] = true;
        ErrorCode code = response == null ? ErrorCode.REQUEST_TIMED_OUT : kind.code(response);
        ErrorClass handling = ErrorHandling.of(code);
        if (handling == ErrorClass.RETRIABLE || handling == ErrorClass.REFRESH_AND_RETRY) {
            int named = response == null ? -1 : kind.header(response).getControllerId();
            node = named >= 0 && controllers.contains(named) ? controllers.indexOf(named) : node + 1;
            if (attempt < ATTEMPTS_MAX) {
                scheduler.scheduleAfter(RETRY_BACKOFF_MS, EventKind.CLIENT, SystemRpc.CLIENT,
                        () -> send(call, attempt + 1));
                return;
            }
            gaveUp++;
        } else if (code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED) {
            denied++;
        } else {
            written++;
        }
        scheduleNext();
    }

    /** Attempts sent. */
    long sent() {
        return sent;
    }

    /** Writes answered other than CLUSTER_AUTHORIZATION_FAILED or a retriable code. */
    long written() {
        return written;
    }

    /** Writes refused with CLUSTER_AUTHORIZATION_FAILED. */
    long denied() {
        return denied;
    }

    long gaveUp() {
        return gaveUp;
    }
}
