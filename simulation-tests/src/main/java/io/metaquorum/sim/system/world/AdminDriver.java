package io.metaquorum.sim.system.world;

import com.google.protobuf.Message;
import io.metaquorum.retry.AdminOptions;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.invariant.AuthorizationCheck;
import io.metaquorum.sim.system.invariant.PredictedAnswerCheck;
import io.metaquorum.sim.system.invariant.ReadOffsetsCheck;
import io.metaquorum.sim.system.invariant.WriteHistoryCheck;
import io.metaquorum.sim.system.linearizability.History;
import io.metaquorum.sim.system.linearizability.Operation;
import io.metaquorum.sim.system.workload.AdminAnswer;
import io.metaquorum.sim.system.workload.AdminCall;
import io.metaquorum.sim.system.workload.AclCall;
import io.metaquorum.sim.system.workload.AdminWorkload;
import io.metaquorum.sim.system.workload.ClusterView;
import io.metaquorum.sim.system.workload.ReferenceModel;
import io.metaquorum.sim.system.workload.ScramCall;
import io.metaquorum.sim.system.workload.SimCallers;
import io.metaquorum.sim.system.workload.SimAdminClient;
import io.metaquorum.sim.timeline.BrokerTimeline;
import io.metaquorum.sim.timeline.Timeline;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * The admin clients of a system run: {@link #CLIENTS} {@link SimAdminClient}s, bootstrapped
 * with every controller node, run the seeded {@link AdminWorkload} over {@link SystemRpc}
 * once every broker is registered and unfenced. Each client thinks a random while between
 * calls. Client {@code c} calls as {@link SimCallers#client}: the admin (a super user), alice or
 * bob, whose calls the ACLs decide; beside them a {@link ControllerWriter} of {@link AclWriter}s changes the ACLs. Judged:
 * every answer's authorization, where it is given ({@link AuthorizationCheck}); every definite
 * answer against the {@link ReferenceModel}; at the end, the history of writes for
 * linearizability. Reads (describe, list) are served from whichever
 * node's committed image, so they are not linearizable in production (simulation-tests/README.md, "Known
 * limits"); they are judged by {@code ImageReplayCheck} (every node's image equals the
 * committed log's replay at its offset, after every event) and by offsets that never go back
 * for one client reading from one node incarnation ({@link #READ_OFFSETS}).
 */
public final class AdminDriver {
    public static final String MODEL = PredictedAnswerCheck.NAME;
    public static final String LINEARIZABLE = WriteHistoryCheck.NAME;
    public static final String READ_OFFSETS = ReadOffsetsCheck.NAME;
    /** Checked where a controller answers a read ({@code ControllerRole}). */
    public static final String READ_CURRENT = "admin-read-from-current-image";
    static final int CLIENTS = 3;
    /**
     * The clients begin once every broker is registered, unfenced and running, or from this
     * simulated time on once every broker has registered: under heavy churn the first moment
     * may come late or never, and the oracle judges creates by the brokers surely unfenced at
     * each decision anyway (a registration, unlike unfencing, is never undone).
     */
    static final long START_AT_LATEST_MS = 30_000;
    private static final long THINK_MEAN_MS = 100;
    private static final long CALL_TIMEOUT_MS = 5_000;
    private static final AdminOptions OPTIONS = new AdminOptions(1_000, 100, 1_000);
    /** Names valid work is spread over: enough that one name's sub-history stays small to search. */
    private static final int NAME_POOL = 16;
    private static final long LINEARIZABILITY_STEPS_MAX = 20_000_000;

    private final SystemWorld world;
    private final EventScheduler scheduler;
    private final Random random;
    private final SimCluster cluster;
    private final ReferenceModel model = new ReferenceModel(1, 1);
    private final PredictedAnswerCheck predicted = new PredictedAnswerCheck(model);
    private final SurelyUnfencedBrokers surelyUnfenced = new SurelyUnfencedBrokers(CLIENTS);
    private final ReadOffsetsCheck readOffsets = new ReadOffsetsCheck();
    private final History<AdminInput, AdminOutput> history = new History<>();
    private final HistorySealer sealer = new HistorySealer(history);
    private final AdminWorkload workload;
    private final AuthorizationCheck authorization;
    private final ControllerWriter<AclCall, Message> aclWriter;
    private final ControllerWriter<ScramCall, AlterUserScramCredentialsResponse> scramWriter;
    private final List<SimAdminClient> clients = new ArrayList<>();
    private final long[] nextStartMs = new long[CLIENTS];
    private final long[] wakeAtMs = new long[CLIENTS];
    private final long[] wakeToken = new long[CLIENTS];
    /** History operations whose attempt certainly took no effect. */
    private final BitSet noEffect = new BitSet();
    private boolean started;
    private boolean accepting = true;
    private long probeSinceMs = Long.MAX_VALUE;
    private long latestAckedWriteStartMs = -1;
    private long callsFinished;
    private long itemsAcknowledged;
    private long topicsCreated;
    /** Null unless the run records a timeline. */
    private BrokerTimeline timeline;
    /** The attempt a node is serving right now ({@link #runAttempt}), or null. */
    private AttemptOps current;

    AdminDriver(SystemWorld world, EventScheduler scheduler, Random random, SimCluster cluster) {
        this.world = world;
        this.scheduler = scheduler;
        this.random = random;
        this.cluster = cluster;
        this.workload = new AdminWorkload(new Random(random.nextLong()), model, NAME_POOL);
        List<Integer> controllers = new ArrayList<>();
        cluster.voters().forEach(v -> controllers.add(v.nodeId()));
        this.authorization = new AuthorizationCheck(world.access().settings());
        this.aclWriter = new ControllerWriter<>(world, this, new Random(random.nextLong()), controllers,
                () -> accepting, new AclWriter());
        this.scramWriter = new ControllerWriter<>(world, this, new Random(random.nextLong()), controllers,
                () -> accepting, new ScramWriter());
        for (int c = 0; c < CLIENTS; c++) {
            List<Integer> bootstrap = new ArrayList<>(controllers);
            Collections.rotate(bootstrap, -c);
            clients.add(new SimAdminClient(c, bootstrap, OPTIONS, CALL_TIMEOUT_MS, 1, history));
            wakeAtMs[c] = Long.MAX_VALUE;
        }
    }

    void recordTimeline(BrokerTimeline brokerTimeline) {
        this.timeline = brokerTimeline;
    }

    /** After every event: the clients begin as {@link #START_AT_LATEST_MS} says. */
    void afterEvent() {
        sealer.committedUpTo(world.committedImage().committedEndOffset(), scheduler.nowMs());
        boolean due = world.allBrokersUnfenced()
                || (scheduler.nowMs() >= START_AT_LATEST_MS && world.allBrokersRegistered());
        if (!started && !cluster.observers().isEmpty() && due) {
            started = true;
            for (int c = 0; c < CLIENTS; c++) {
                nextStartMs[c] = scheduler.nowMs() + think();
                wake(c, nextStartMs[c]);
            }
            aclWriter.start();
            scramWriter.start();
        }
    }

    /** Keeps the clients starting calls until a write started at or after {@code sinceMs} is acknowledged. */
    public void probeSince(long sinceMs) {
        probeSinceMs = sinceMs;
        accepting = true;
        long now = scheduler.nowMs();
        for (int c = 0; c < CLIENTS && started; c++) {
            nextStartMs[c] = Math.max(nextStartMs[c], now);
            wake(c, nextStartMs[c]);
        }
        if (started) {
            aclWriter.start();
            scramWriter.start();
        }
    }

    /** The start time of the latest call whose write was acknowledged (NONE), or -1. */
    public long latestAckedWriteStartMs() {
        return latestAckedWriteStartMs;
    }

    private long think() {
        return (long) (-THINK_MEAN_MS * Math.log(1 - random.nextDouble()));
    }

    private TreeSet<Integer> brokers() {
        TreeSet<Integer> brokers = new TreeSet<>();
        cluster.observers().forEach(o -> brokers.add(o.nodeId()));
        return brokers;
    }

    /** The view the workload draws calls from: no broker is sure to be unfenced when a call is decided. */
    private ClusterView drawingView() {
        return new ClusterView(brokers(), new TreeSet<>());
    }

    private void wake(int c, long atMs) {
        if (atMs == Long.MAX_VALUE || wakeAtMs[c] <= atMs) {
            return;
        }
        wakeAtMs[c] = atMs;
        long token = ++wakeToken[c];
        scheduler.schedule(Math.max(atMs, scheduler.nowMs()), EventKind.CLIENT, SystemRpc.CLIENT, () -> {
            if (token == wakeToken[c]) {
                wakeAtMs[c] = Long.MAX_VALUE;
                tick(c);
            }
        });
    }

    private void tick(int c) {
        long now = scheduler.nowMs();
        SimAdminClient client = clients.get(c);
        poll(c, now);
        client.takeFinished(now).ifPresent(done -> {
            finished(c, done);
            // The think time runs from a call's end: with answers that take no simulated time, calls
            // started back to back would never let the clock move.
            nextStartMs[c] = now + Math.max(1, think());
        });
        if (client.idle() && accepting && now >= nextStartMs[c]) {
            AdminCall call = workload.next(drawingView());
            model.onStart(call);
            surelyUnfenced.onStart(c);
            client.start(call, now);
            poll(c, now);
        }
        wake(c, client.idle() ? (accepting ? nextStartMs[c] : Long.MAX_VALUE) : client.nextDeadlineMs());
    }

    private void finished(int c, SimAdminClient.Finished done) {
        predicted.onFinish(done.call(), done.items(), surelyUnfenced.view(c, brokers()));
        callsFinished++;
        if (timeline != null) {
            timeline.onAdminCall(new Timeline.AdminMark(done.startMs(), done.endMs(), c,
                    done.call().getClass().getSimpleName(), outcomeClass(done.items()), done.items().size()));
        }
        for (ReferenceModel.FinalItem item : done.items()) {
            if (item.definite() && item.code() == ErrorCode.NONE && done.call().writes()) {
                itemsAcknowledged++;
                latestAckedWriteStartMs = Math.max(latestAckedWriteStartMs, done.startMs());
                if (done.call() instanceof AdminCall.CreateTopics create && !create.request().validateOnly()) {
                    topicsCreated++;
                }
                if (done.startMs() >= probeSinceMs) {
                    accepting = false;
                }
            }
        }
    }

    /** {@code unknown} if some item's outcome is not known, else {@code ok} if every item succeeded, else {@code error}. */
    private static String outcomeClass(List<ReferenceModel.FinalItem> items) {
        if (items.stream().anyMatch(item -> !item.definite())) {
            return "unknown";
        }
        return items.stream().allMatch(item -> item.code() == ErrorCode.NONE) ? "ok" : "error";
    }

    /** Sends the client's due attempt, noting which history operations it recorded. */
    private void poll(int c, long now) {
        int firstOp = history.size();
        clients.get(c).poll(now).ifPresent(attempt -> send(c, attempt, firstOp, history.size()));
    }

    /**
     * Sends one attempt. The simulator knows what the client cannot: an attempt no controller
     * ran (lost on the way, the node down, refused on the spot or forwarded nowhere) took no
     * effect, though the client must treat it as unknown; its operations are left out of the
     * history judged ({@link #noEffect}) until a controller runs it ({@link #onAttemptRan}),
     * which keeps the search small and removes only what certainly did not happen.
     */
    private void send(int c, SimAdminClient.Attempt attempt, int firstOp, int endOp) {
        SimAdminClient client = clients.get(c);
        String[] servedBy = new String[1];
        AttemptOps ops = new AttemptOps(c, firstOp, endOp, new AuthorizationCheck.WriteDecision());
        noEffect.set(firstOp, endOp);
        world.rpc().<AdminAnswer>call(SystemRpc.CLIENT, () -> true, attempt.nodeId(), (callee, reply) -> {
            servedBy[0] = callee.nodeId() + "/" + callee.incarnation();
            if (callee.role() instanceof ControllerRole controller) {
                runAttempt(ops, () -> controller.handleAdmin(attempt.call(), SimCallers.client(c),
                        world.writeTimeoutMs(), reply));
                callee.nudge();
            }
        }, answer -> {
            readOffsets.observe(c, servedBy[0], answer);
            client.onAnswer(attempt.id(), answer, scheduler.nowMs());
            List<Operation<AdminInput, AdminOutput>> answered = new ArrayList<>();
            attempt.historyOps().values().forEach(op -> answered.add(history.operation(op)));
            world.requireAcknowledgedCommitted(answered);
            tick(c);
        }, () -> {
            client.onNoAnswer(attempt.id(), scheduler.nowMs());
            tick(c);
        });
    }

    /**
     * The client of one attempt and the attempt's history operations, {@code [firstOp, endOp)},
     * and where a controller decided it; client -1 for an ACL write, which has no history.
     */
    record AttemptOps(int client, int firstOp, int endOp, AuthorizationCheck.WriteDecision decision) {
        static AttemptOps outsideHistory() {
            return new AttemptOps(-1, 0, 0, new AuthorizationCheck.WriteDecision());
        }
    }

    /** Serves {@code attempt} on a node: what its handlers queue for the controller is that attempt's. */
    void runAttempt(AttemptOps attempt, Runnable serve) {
        AttemptOps outer = current;
        current = attempt;
        try {
            serve.run();
        } finally {
            current = outer;
        }
    }

    /** The attempt being served now, or null (a broker's lifecycle call, a controller's own work). */
    AttemptOps currentAttempt() {
        return current;
    }

    /**
     * A controller ran the attempt's operation; its decision image ended at {@code endBefore},
     * then {@code endAfter}. An {@code active} controller decided the attempt right then, so
     * that is where the brokers it surely saw unfenced are judged. {@code onCommitted}: it
     * decided on its committed image alone (nothing of its own appended yet); a committed
     * image is a prefix of the committed log, so when its end is the replay's too, the brokers
     * unfenced in the replay are what the decision saw. Otherwise (an uncommitted tail, even
     * one ending where the committed log ends, a deposed leader's say, may hold anything) no
     * broker is sure for this decision, and the call's view shrinks to nothing.
     */
    void onAttemptRan(AttemptOps attempt, boolean active, boolean onCommitted, long endBefore, long endAfter) {
        if (attempt.client() < 0) {
            return;
        }
        if (active) {
            surelyUnfenced.onDecision(attempt.client(), onCommitted ? SurelyUnfencedBrokers.atDecision(
                    world.committedImage(), endBefore, brokers()) : new TreeSet<>());
        }
        noEffect.clear(attempt.firstOp(), attempt.endOp());
        sealer.handled(attempt.firstOp(), attempt.endOp(), endBefore, endAfter);
    }

    /** At the end: the write history must be linearizable. */
    void finish() {
        WriteHistoryCheck.check(history.operations(), noEffect, LINEARIZABILITY_STEPS_MAX);
    }

    AuthorizationCheck authorization() {
        return authorization;
    }

    ControllerWriter<AclCall, Message> aclWriter() {
        return aclWriter;
    }

    ControllerWriter<ScramCall, AlterUserScramCredentialsResponse> scramWriter() {
        return scramWriter;
    }

    /** Definite answers (per item) the reference model left to the authorization check: TOPIC_AUTHORIZATION_FAILED. */
    long answersDenied() {
        return model.denied();
    }

    long callsFinished() {
        return callsFinished;
    }

    long itemsAcknowledged() {
        return itemsAcknowledged;
    }

    /** Definite answers (per item) the reference model judged. */
    long answersJudged() {
        return model.judgedByCode().values().stream().mapToLong(Integer::longValue).sum();
    }

    long topicsCreated() {
        return topicsCreated;
    }

    /** Every attempt recorded, in invocation order. */
    List<Operation<AdminInput, AdminOutput>> historyOperations() {
        return history.operations();
    }

    /** Unknown outcomes bounded by what the log decided ({@link HistorySealer}). */
    long sealedOperations() {
        return sealer.sealed();
    }

    long historySize() {
        return history.size();
    }

    long unknownOutcomes() {
        return history.operations().stream().filter(op -> !op.outcomeKnown()).count();
    }
}
