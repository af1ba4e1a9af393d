package io.metaquorum.sim.system.world;

import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.retry.ErrorHandling;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.system.invariant.ScramWriteCheck;
import io.metaquorum.sim.system.workload.ScramCall;
import io.metaquorum.sim.system.workload.ScramWorkload;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * The client that writes the workload's SCRAM credentials ({@link ScramWorkload}), as
 * {@link AclWriter} writes ACLs: one AlterUserScramCredentials at a time over
 * {@link SystemRpc} to a controller node, a random think time apart, while the admin clients
 * run; a write without a definite answer is sent again, to the controller the answer named or
 * the next node, a few times (an upsertion again stores the same credential; a deletion again
 * finds nothing, RESOURCE_NOT_FOUND, which the checks allow). Its answers are judged where they
 * are given ({@link ScramWriteCheck}, and the authorization check).
 */
final class ScramWriter {
    private static final long THINK_MEAN_MS = 1_000;
    private static final int ATTEMPTS_MAX = 5;
    private static final long RETRY_BACKOFF_MS = 100;
    private static final long ATTEMPT_TIMEOUT_MS = 3_000;

    private final SystemWorld world;
    private final AdminDriver driver;
    private final EventScheduler scheduler;
    private final Random random;
    private final ScramWorkload workload;
    private final List<Integer> controllers;
    /** Whether the admin clients still start calls: the writer stops with them. */
    private final BooleanSupplier accepting;
    private int node;
    private boolean busy;
    private long sent;
    private long written;
    private long denied;
    private long gaveUp;

    ScramWriter(SystemWorld world, AdminDriver driver, Random random, List<Integer> controllers,
                BooleanSupplier accepting) {
        this.world = world;
        this.driver = driver;
        this.scheduler = world.scheduler();
        this.random = random;
        this.workload = new ScramWorkload(new Random(random.nextLong()));
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
                send(workload.next(), 1);
            } else {
                busy = false;
            }
        });
    }

    private void send(ScramCall call, int attempt) {
        sent++;
        int to = controllers.get(node % controllers.size());
        AdminDriver.AttemptOps ops = AdminDriver.AttemptOps.outsideHistory();
        boolean[] done = {false};
        world.rpc().<AlterUserScramCredentialsResponse>call(SystemRpc.CLIENT, () -> true, to, (callee, reply) -> {
            if (callee.role() instanceof ControllerRole controller) {
                driver.runAttempt(ops, () -> controller.handleScram(call, reply));
                callee.nudge();
            }
        }, response -> finish(done, call, attempt, response), () -> finish(done, call, attempt, null));
        scheduler.scheduleAfter(ATTEMPT_TIMEOUT_MS, EventKind.CLIENT, SystemRpc.CLIENT,
                () -> finish(done, call, attempt, null));
    }

    private void finish(boolean[] done, ScramCall call, int attempt, AlterUserScramCredentialsResponse response) {
        if (done[0]) {
            return;
        }
        done[0] = true;
        ErrorCode code = response == null ? ErrorCode.REQUEST_TIMED_OUT : code(response);
        ErrorClass handling = ErrorHandling.of(code);
        if (handling == ErrorClass.RETRIABLE || handling == ErrorClass.REFRESH_AND_RETRY) {
            int named = response == null ? -1 : response.getHeader().getControllerId();
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

    /** The header's code, else the first user's. */
    private static ErrorCode code(AlterUserScramCredentialsResponse response) {
        if (response.getHeader().getErrorCode() != ErrorCode.NONE) {
            return response.getHeader().getErrorCode();
        }
        return response.getResultsCount() > 0 ? response.getResults(0).getErrorCode() : ErrorCode.NONE;
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
