package io.metaquorum.sim.system.world;

import com.google.protobuf.Message;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.retry.ErrorHandling;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.system.invariant.AuthorizationCheck;
import io.metaquorum.sim.system.workload.AclCall;
import io.metaquorum.sim.system.workload.AclWorkload;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * The client that writes the workload's ACLs ({@link AclWorkload}): one CreateAcls or
 * DeleteAcls at a time over {@link SystemRpc} to a controller node, a random think time
 * apart, while the admin clients run. An ACL write is idempotent (an ACL that exists is
 * created again as a no-op; a filter deletes what matches), so a write without a definite
 * answer is simply sent again, to the controller the answer named or the next node, a few
 * times. Its answers are judged where they are given, like every admin answer
 * ({@link AuthorizationCheck}); what the writes change is judged through the decisions that
 * follow.
 */
final class AclWriter {
    private static final long THINK_MEAN_MS = 1_000;
    private static final int ATTEMPTS_MAX = 5;
    private static final long RETRY_BACKOFF_MS = 100;
    private static final long ATTEMPT_TIMEOUT_MS = 3_000;

    private final SystemWorld world;
    private final AdminDriver driver;
    private final EventScheduler scheduler;
    private final Random random;
    private final AclWorkload workload;
    private final List<Integer> controllers;
    /** Whether the admin clients still start calls: the writer stops with them. */
    private final BooleanSupplier accepting;
    private int node;
    private boolean busy;
    private long sent;
    private long written;
    private long denied;
    private long gaveUp;

    AclWriter(SystemWorld world, AdminDriver driver, Random random, List<Integer> controllers,
              BooleanSupplier accepting) {
        this.world = world;
        this.driver = driver;
        this.scheduler = world.scheduler();
        this.random = random;
        this.workload = new AclWorkload(new Random(random.nextLong()));
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

    private void send(AclCall call, int attempt) {
        sent++;
        int to = controllers.get(node % controllers.size());
        AdminDriver.AttemptOps ops = AdminDriver.AttemptOps.outsideHistory();
        boolean[] done = {false};
        world.rpc().<Message>call(SystemRpc.CLIENT, () -> true, to, (callee, reply) -> {
            if (callee.role() instanceof ControllerRole controller) {
                driver.runAttempt(ops, () -> controller.handleAcl(call, reply));
                callee.nudge();
            }
        }, response -> finish(done, call, attempt, response), () -> finish(done, call, attempt, null));
        scheduler.scheduleAfter(ATTEMPT_TIMEOUT_MS, EventKind.CLIENT, SystemRpc.CLIENT,
                () -> finish(done, call, attempt, null));
    }

    private void finish(boolean[] done, AclCall call, int attempt, Message response) {
        if (done[0]) {
            return;
        }
        done[0] = true;
        ErrorCode code = response == null ? ErrorCode.REQUEST_TIMED_OUT : code(response);
        ErrorClass handling = ErrorHandling.of(code);
        if (handling == ErrorClass.RETRIABLE || handling == ErrorClass.REFRESH_AND_RETRY) {
            int named = response == null ? -1 : header(response).getControllerId();
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

    /** The header's code, else the first entry's (a write answered entry by entry). */
    private static ErrorCode code(Message response) {
        AdminResponseHeader header = header(response);
        if (header.getErrorCode() != ErrorCode.NONE) {
            return header.getErrorCode();
        }
        if (response instanceof CreateAclsResponse created && created.getResultsCount() > 0) {
            return created.getResults(0).getErrorCode();
        }
        return response instanceof DeleteAclsResponse deleted && deleted.getFilterResultsCount() > 0
                ? deleted.getFilterResults(0).getErrorCode() : ErrorCode.NONE;
    }

    private static AdminResponseHeader header(Message response) {
        return response instanceof CreateAclsResponse created ? created.getHeader()
                : ((DeleteAclsResponse) response).getHeader();
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
