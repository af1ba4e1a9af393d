package io.metaquorum.sim.system.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.system.admin.AdminInput.AlterConfigs;
import io.metaquorum.sim.system.admin.AdminInput.ConfigChange;
import io.metaquorum.sim.system.admin.AdminInput.CreatePartitions;
import io.metaquorum.sim.system.admin.AdminInput.CreateTopic;
import io.metaquorum.sim.system.admin.AdminInput.DeleteTopic;
import io.metaquorum.sim.system.admin.AdminInput.DescribeTopic;
import io.metaquorum.sim.system.admin.AdminInput.ListTopics;
import io.metaquorum.sim.system.admin.AdminOutput.Described;
import io.metaquorum.sim.system.admin.AdminOutput.Listed;
import io.metaquorum.sim.system.admin.AdminOutput.TopicView;
import io.metaquorum.sim.system.admin.AdminOutput.WriteResult;
import io.metaquorum.sim.system.linearizability.CheckResult;
import io.metaquorum.sim.system.linearizability.History;
import io.metaquorum.sim.system.linearizability.LinearizabilityChecker;
import io.metaquorum.sim.system.linearizability.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Histories of a few thousand operations from concurrent clients against an atomic server
 * (each operation takes effect at one random instant between its invocation and its answer,
 * some answers are lost): the checker must call them linearizable, quickly, and must catch
 * one answer changed afterwards.
 */
class AdminHistoryScaleTest {
    private static final int CLIENTS = 12;
    private static final int NAMES = 40;

    /** A client's operation: invoked, maybe applied (its output decided), not yet answered. */
    private static final class Pending {
        int id;
        AdminInput input;
        AdminOutput output;
        boolean applied;
    }

    /** The atomic server: one map of topics and an offset that grows with each write. */
    private static final class Server {
        final TreeMap<String, TopicView> topics = new TreeMap<>();
        long offset;
        int nextId;

        AdminOutput apply(AdminInput input) {
            TopicView topic = input.topic() == null ? null : topics.get(input.topic());
            if (input instanceof CreateTopic create) {
                if (topic != null) {
                    return WriteResult.failed(ErrorCode.TOPIC_ALREADY_EXISTS);
                }
                String id = "id" + nextId++;
                topics.put(create.topic(), new TopicView(id, create.partitions(), create.configs()));
                offset++;
                return WriteResult.ok(id);
            }
            if (input instanceof DescribeTopic) {
                return topic == null ? new Described(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null, offset)
                        : new Described(ErrorCode.NONE, topic, offset);
            }
            if (input instanceof ListTopics) {
                TreeMap<String, String> ids = new TreeMap<>();
                topics.forEach((name, view) -> ids.put(name, view.topicId()));
                return new Listed(ids, offset);
            }
            if (topic == null) {
                return WriteResult.failed(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
            }
            offset++;
            if (input instanceof DeleteTopic) {
                topics.remove(input.topic());
                return WriteResult.ok(topic.topicId());
            }
            if (input instanceof CreatePartitions grow) {
                if (grow.count() <= topic.partitions()) {
                    return WriteResult.failed(ErrorCode.INVALID_PARTITIONS);
                }
                topics.put(input.topic(), new TopicView(topic.topicId(), grow.count(), topic.configs()));
                return WriteResult.ok(null);
            }
            AlterConfigs alter = (AlterConfigs) input;
            TreeMap<String, String> configs = new TreeMap<>(topic.configs());
            for (ConfigChange change : alter.changes()) {
                configs.put(change.key(), change.value());
            }
            topics.put(input.topic(), new TopicView(topic.topicId(), topic.partitions(), configs));
            return WriteResult.ok(null);
        }
    }

    private static AdminInput randomInput(Random random) {
        String name = "topic-" + random.nextInt(NAMES);
        int kind = random.nextInt(10);
        return switch (kind) {
            case 0, 1 -> new CreateTopic(name, 1 + random.nextInt(3), new TreeMap<>(), false);
            case 2 -> new DeleteTopic(name);
            case 3 -> new CreatePartitions(name, 1 + random.nextInt(6));
            case 4 -> new AlterConfigs(name, List.of(new ConfigChange("retention.ms", "" + random.nextInt(3))));
            case 5 -> new ListTopics();
            default -> new DescribeTopic(name);
        };
    }

    /** A history of {@code operations} operations; about 2% lose their answer (applied or not). */
    static History<AdminInput, AdminOutput> generate(long seed, int operations) {
        Random random = new Random(seed);
        Server server = new Server();
        History<AdminInput, AdminOutput> history = new History<>();
        Pending[] clients = new Pending[CLIENTS];
        long clock = 0;
        int started = 0;
        while (started < operations || anyPending(clients)) {
            int c = random.nextInt(CLIENTS);
            Pending pending = clients[c];
            clock++;
            if (pending == null) {
                if (started < operations) {
                    pending = new Pending();
                    pending.input = randomInput(random);
                    pending.id = history.invoke(c, pending.input, clock);
                    clients[c] = pending;
                    started++;
                }
            } else if (!pending.applied && random.nextInt(50) == 0) {
                history.ambiguous(pending.id);
                clients[c] = null;
            } else if (!pending.applied) {
                pending.output = server.apply(pending.input);
                pending.applied = true;
            } else {
                if (random.nextInt(60) == 0) {
                    history.ambiguous(pending.id);
                } else {
                    history.complete(pending.id, pending.output, clock);
                }
                clients[c] = null;
            }
        }
        return history;
    }

    private static boolean anyPending(Pending[] clients) {
        for (Pending pending : clients) {
            if (pending != null) {
                return true;
            }
        }
        return false;
    }

    private static CheckResult check(List<Operation<AdminInput, AdminOutput>> operations) {
        return new LinearizabilityChecker<>(new AdminModel(), new AdminPartitioner(), 5_000_000).check(operations);
    }

    @Test
    void fourThousandOperationsOfAnAtomicServerAreLinearizableAndCheckedQuickly() {
        for (long seed = 1; seed <= 5; seed++) {
            History<AdminInput, AdminOutput> history = generate(seed, 4_000);
            long currentSeed = seed;
            CheckResult result = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> check(history.operations()));
            assertTrue(result.linearizable(), "seed " + currentSeed + ": " + result);
            assertEquals(NAMES, result.partitions(), result.toString());
        }
    }

    @Test
    void oneReadChangedAfterwardsIsCaught() {
        History<AdminInput, AdminOutput> history = generate(7, 4_000);
        List<Operation<AdminInput, AdminOutput>> operations = new ArrayList<>(history.operations());
        int changed = 0;
        for (int i = operations.size() / 2; i < operations.size() && changed == 0; i++) {
            Operation<AdminInput, AdminOutput> op = operations.get(i);
            if (op.output() instanceof Described described && described.code() == ErrorCode.NONE) {
                TopicView shown = described.topic();
                TopicView wrong = new TopicView(shown.topicId(), shown.partitions() + 10, shown.configs());
                operations.set(i, op.project(op.id(), op.input(), new Described(ErrorCode.NONE, wrong,
                        described.offset())));
                changed++;
            }
        }
        assertEquals(1, changed);
        assertTrue(check(history.operations()).linearizable());
        assertEquals(CheckResult.Verdict.NOT_LINEARIZABLE, check(operations).verdict());
    }
}
