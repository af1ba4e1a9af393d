package io.metaquorum.sim.system.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.retry.AdminOptions;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminModel;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.admin.AdminPartitioner;
import io.metaquorum.sim.system.linearizability.CheckResult;
import io.metaquorum.sim.system.linearizability.History;
import io.metaquorum.sim.system.linearizability.LinearizabilityChecker;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.invariant.AcknowledgedWritesCheck;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The seeded admin workload against the real {@link io.metaquorum.metadata.controller.QuorumController}
 * (one node, raft stood in by {@link OneControllerCluster}), through clients that retry by
 * handling class over a network that delays and loses answers, with failovers that keep or
 * drop the uncommitted records. Every definite answer must be what the reference model
 * allows, the history of attempts must be linearizable, and the run must have exercised every
 * kind of call and every code the model predicts.
 */
class AdminWorkloadControllerTest {
    private static final int CLIENTS = 5;
    private static final long RUN_MS = 25_000;
    private static final AdminOptions OPTIONS = new AdminOptions(400, 20, 200);
    private static final long CALL_TIMEOUT_MS = 2_000;
    private static final int WRITE_TIMEOUT_MS = 300;
    private static final int FAILOVER_ONE_IN_MS = 4_000;

    /** A message in flight: delivered at {@code atMs}. */
    private record Delivery(long atMs, long seq, Runnable action) {
    }

    static final class Run {
        final ReferenceModel model = new ReferenceModel(1, 1);
        final History<AdminInput, AdminOutput> history = new History<>();
        AdminWorkload workload;
        OneControllerCluster cluster;
        int answersLost;
        Tamper tamper;
        /** Whether attempts are sealed once their fate is decided. */
        boolean seal;
        /** History operations to seal once this many appends are decided, by that count. */
        final TreeMap<Long, List<Integer>> toSeal = new TreeMap<>();
        int sealed;
    }

    static final int STALE_MS = 100;

    /** Changes an answer on its way back: a broken server, for the tests that show the checks catch one. */
    interface Tamper {
        Tamper NONE = (call, answer, cluster) -> answer;

        AdminAnswer apply(AdminCall call, AdminAnswer answer, OneControllerCluster cluster);
    }

    static Run run(long seed) {
        return run(seed, RUN_MS, Tamper.NONE);
    }

    static Run run(long seed, long runMs, Tamper tamper) {
        return run(seed, runMs, tamper, WRITE_TIMEOUT_MS, FAILOVER_ONE_IN_MS);
    }

    /**
     * @param writeTimeoutMs what the endpoint gives the controller: &gt; 0 answers writes once
     *                       committed; 0 answers them once appended (the broken variant "reply
     *                       before commit")
     * @param failoverOneInMs the chance of a failover in each simulated ms is 1 in this
     */
    static Run run(long seed, long runMs, Tamper tamper, int writeTimeoutMs, int failoverOneInMs) {
        return run(seed, runMs, tamper, writeTimeoutMs, failoverOneInMs, true);
    }

    /** @param seal whether attempts are sealed once their appends are decided */
    static Run run(long seed, long runMs, Tamper tamper, int writeTimeoutMs, int failoverOneInMs, boolean seal) {
        Run run = new Run();
        run.seal = seal;
        run.tamper = tamper;
        Random random = OneControllerCluster.random(seed);
        OneControllerCluster cluster = new OneControllerCluster(seed);
        run.cluster = cluster;
        List<Integer> brokers = OneControllerCluster.ids(3);
        cluster.start(brokers);
        ClusterView view = ClusterView.stable(new TreeSet<>(brokers));
        run.workload = new AdminWorkload(random, run.model, 8);
        ProductionAdminEndpoint endpoint = new ProductionAdminEndpoint(cluster.controller,
                cluster.controller::committedImage, cluster::controllerId, () -> cluster.nowMs, writeTimeoutMs);
        List<SimAdminClient> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            clients.add(new SimAdminClient(c, List.of(OneControllerCluster.NODE), OPTIONS, CALL_TIMEOUT_MS, 1,
                    run.history));
        }
        TreeMap<Long, List<Runnable>> network = new TreeMap<>();
        long end = cluster.nowMs + runMs;
        while (cluster.nowMs < end || clients.stream().anyMatch(c -> !c.idle())) {
            cluster.advanceTo(cluster.nowMs + 1);
            long now = cluster.nowMs;
            List<Runnable> due = network.remove(now);
            if (due != null) {
                due.forEach(Runnable::run);
            }
            if (cluster.leading() && random.nextInt(failoverOneInMs) == 0) {
                cluster.failover(cluster.epoch(), random.nextBoolean(), 20 + random.nextInt(200));
            }
            for (SimAdminClient client : clients) {
                step(run, client, endpoint, network, random, view, now, now < end);
            }
            if (run.seal) {
                seal(run, now);
            }
        }
        return run;
    }

    private static void step(Run run, SimAdminClient client, ProductionAdminEndpoint endpoint,
                             TreeMap<Long, List<Runnable>> network, Random random, ClusterView view, long now,
                             boolean startMore) {
        client.takeFinished(now).ifPresent(done -> run.model.onFinish(done.call(), done.items(), view));
        if (client.idle() && startMore && random.nextInt(20) == 0) {
            AdminCall call = run.workload.next(view);
            run.model.onStart(call);
            client.start(call, now);
        }
        client.poll(now).ifPresent(attempt -> {
            long arrive = now + 1 + random.nextInt(3);
            network.computeIfAbsent(arrive, t -> new ArrayList<>()).add(() -> handle(run, endpoint, attempt,
                    untampered -> {
                        AdminAnswer answer = run.tamper.apply(attempt.call(), untampered, run.cluster);
                        if (random.nextInt(40) == 0) {
                            run.answersLost++;
                            return;
                        }
                        long back = run.cluster.nowMs + 1 + random.nextInt(3);
                        network.computeIfAbsent(back, t -> new ArrayList<>()).add(() ->
                                client.onAnswer(attempt.id(), answer, run.cluster.nowMs));
                    }));
        });
    }

    /** Hands an attempt to the endpoint, noting which appends (if any) decide its fate. */
    private static void handle(Run run, ProductionAdminEndpoint endpoint, SimAdminClient.Attempt attempt,
                               java.util.function.Consumer<AdminAnswer> reply) {
        long before = run.cluster.appendsMade;
        endpoint.handle(attempt.call(), reply);
        // Nothing appended: it can never take effect. Else: decided once its appends are.
        long decidedAt = run.cluster.appendsMade == before ? 0 : run.cluster.appendsMade;
        run.toSeal.computeIfAbsent(decidedAt, n -> new ArrayList<>()).addAll(attempt.historyOps().values());
    }

    /** Seals the ambiguous attempts whose appends are decided; the others wait. */
    private static void seal(Run run, long now) {
        for (var entry : run.toSeal.headMap(run.cluster.appendsDecided, true).entrySet()) {
            entry.getValue().removeIf(op -> {
                if (run.history.awaitsSeal(op)) {
                    run.history.seal(op, now);
                    run.sealed++;
                    return true;
                }
                return run.history.answeredDefinitely(op);
            });
        }
        run.toSeal.values().removeIf(List::isEmpty);
    }

    @Test
    void everyDefiniteAnswerIsPredictedAndTheHistoryIsLinearizable() {
        EnumSet<ErrorCode> seen = EnumSet.noneOf(ErrorCode.class);
        EnumSet<AdminWorkload.Kind> kinds = EnumSet.noneOf(AdminWorkload.Kind.class);
        long deterministic = 0;
        int ambiguous = 0;
        int failovers = 0;
        for (long seed = 1; seed <= 3; seed++) {
            Run run = run(seed);
            assertEquals(List.of(), run.model.mismatches(), "seed " + seed);
            assertTrue(run.cluster.acknowledged.requireReflected(run.history.operations()) > 100);
            CheckResult result = new LinearizabilityChecker<>(new AdminModel(), new AdminPartitioner(), 10_000_000)
                    .check(run.history.operations());
            assertTrue(result.linearizable(), "seed " + seed + ": " + result);
            seen.addAll(run.model.judgedByCode().keySet());
            deterministic += run.model.deterministicJudged();
            ambiguous += (int) run.history.operations().stream().filter(op -> !op.outcomeKnown()).count();
            failovers += run.cluster.failovers;
            for (AdminWorkload.Kind kind : AdminWorkload.Kind.values()) {
                if (run.workload.drawn(kind) > 0) {
                    kinds.add(kind);
                }
            }
        }
        assertEquals(EnumSet.allOf(AdminWorkload.Kind.class), kinds);
        assertTrue(seen.containsAll(EnumSet.of(ErrorCode.NONE, ErrorCode.TOPIC_ALREADY_EXISTS,
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_TOPIC_EXCEPTION,
                ErrorCode.INVALID_PARTITIONS, ErrorCode.INVALID_REPLICATION_FACTOR, ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                ErrorCode.INVALID_CONFIG)), "codes judged: " + seen);
        assertTrue(deterministic > 300, "deterministic cases judged: " + deterministic);
        assertTrue(ambiguous > 20 && failovers > 5, "ambiguous attempts " + ambiguous + ", failovers " + failovers);
    }

    @Test
    void aControllerThatAcceptsAnInvalidConfigIsCaughtByTheReferenceModel() {
        Run run = run(5, RUN_MS / 5, (call, answer, cluster) -> new AdminAnswer(answer.items().stream().map(item ->
                item.code() == ErrorCode.INVALID_CONFIG ? new ItemResult(item.item(), ErrorCode.NONE,
                        AdminOutput.WriteResult.ok(null)) : item).toList(), answer.requestCode(), answer.controllerId()));
        assertTrue(!run.model.mismatches().isEmpty());
        assertTrue(run.model.mismatches().get(0).toString().contains("INVALID_CONFIG"),
                run.model.mismatches().get(0).toString());
    }

    @Test
    void readsServedFromAStaleImageAreCaughtByTheHistory() {
        Run run = run(6, RUN_MS / 5, (call, answer, cluster) -> call instanceof AdminCall.DescribeTopic describe
                ? ProductionAdminEndpoint.describeAt(staleImage(cluster), describe.name()) : answer);
        assertEquals(List.of(), run.model.mismatches(), "the reference model judges reads loosely");
        CheckResult result = new LinearizabilityChecker<>(new AdminModel(), new AdminPartitioner(), 10_000_000)
                .check(run.history.operations());
        assertEquals(CheckResult.Verdict.NOT_LINEARIZABLE, result.verdict(), result.toString());
    }

    @Test
    void answeringWritesBeforeTheyCommitIsCaught() {
        int seed = 1;
        for (; seed <= 4; seed++) {
            Run run = run(seed, RUN_MS, Tamper.NONE, 0, FAILOVER_ONE_IN_MS / 4);
            try {
                run.cluster.acknowledged.requireReflected(run.history.operations());
            } catch (CheckFailure failure) {
                assertEquals(AcknowledgedWritesCheck.NAME, failure.invariant());
                break;
            }
        }
        assertTrue(seed <= 4, "an acknowledged write lost in a failover shows within 4 seeds");
        Run sealed = run(1, RUN_MS, Tamper.NONE, 0, FAILOVER_ONE_IN_MS / 10);
        CheckResult result = check(sealed);
        assertEquals(CheckResult.Verdict.NOT_LINEARIZABLE, result.verdict(), "the history shows it too");
    }

    @Test
    void sealedAttemptsKeepTheSearchSmallUnderManyFailovers() {
        for (long seed = 1; seed <= 2; seed++) {
            Run run = run(seed, RUN_MS, Tamper.NONE, WRITE_TIMEOUT_MS, FAILOVER_ONE_IN_MS / 10);
            CheckResult result = check(run);
            assertTrue(result.linearizable(), "seed " + seed + ": " + result);
            assertTrue(result.steps() < 1_000_000 && run.sealed > 300 && run.cluster.failovers > 30,
                    "steps " + result.steps() + ", sealed " + run.sealed + ", failovers " + run.cluster.failovers);
        }
    }

    private static CheckResult check(Run run) {
        return new LinearizabilityChecker<>(new AdminModel(), new AdminPartitioner(), 10_000_000)
                .check(run.history.operations());
    }

    private static MetadataImage staleImage(OneControllerCluster cluster) {
        return cluster.imageMsAgo(STALE_MS);
    }

    @Test
    void theSameSeedGivesTheSameRun() {
        Run first = run(11, RUN_MS / 5, Tamper.NONE);
        Run second = run(11, RUN_MS / 5, Tamper.NONE);
        assertEquals(first.history.operations(), second.history.operations());
        Map<ErrorCode, Integer> codes = first.model.judgedByCode();
        assertEquals(codes, second.model.judgedByCode());
    }
}
