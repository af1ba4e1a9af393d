package io.metaquorum.sim.system.workload;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigOp;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource;
import io.metaquorum.metadata.controller.ConfigurationControlManager.OpType;
import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Config;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import io.metaquorum.metadata.image.ConfigResource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The seeded admin workload: creates with random counts, explicit
 * assignments and configs, some invalid on purpose ({@link InvalidTopics}), batches with a
 * name given twice, validate-only creates, deletes and deletes followed by a re-create of the
 * same name, partition increases (and some that are not), config changes (some invalid),
 * describes and lists. Valid work goes to a small pool of names so that operations collide;
 * invalid topics get fresh names.
 *
 * <p>Deterministic: every choice comes from the given random source; what exists is asked of
 * the {@link ReferenceModel}.
 */
public final class AdminWorkload {
    /** The kinds of call, with the weight each is drawn with. */
    public enum Kind {
        CREATE(20), CREATE_ASSIGNED(6), CREATE_INVALID(10), CREATE_BATCH_WITH_DUPLICATE(4), VALIDATE_ONLY(5),
        DELETE(8), DELETE_AND_RECREATE(5), CREATE_PARTITIONS(8), ALTER_CONFIGS(8), DESCRIBE(16), LIST(6);

        final int weight;

        Kind(int weight) {
            this.weight = weight;
        }
    }

    /** Topics one call creates at most (keeps a call far below the records-per-operation limit). */
    static final int PARTITIONS_MAX = 6;

    private final Random random;
    private final ReferenceModel model;
    private final int poolSize;
    private final ArrayDeque<AdminCall> followUps = new ArrayDeque<>();
    private final int[] drawn = new int[Kind.values().length];
    private int freshNames;

    /** @param poolSize how many names valid work is spread over */
    public AdminWorkload(Random random, ReferenceModel model, int poolSize) {
        Invariants.check(poolSize >= 2, "the name pool needs at least 2 names, got %d", poolSize);
        this.random = random;
        this.model = model;
        this.poolSize = poolSize;
    }

    /** How many calls of each kind were drawn. */
    public int drawn(Kind kind) {
        return drawn[kind.ordinal()];
    }

    public AdminCall next(ClusterView cluster) {
        if (!followUps.isEmpty()) {
            return followUps.poll();
        }
        Kind kind = draw();
        drawn[kind.ordinal()]++;
        return switch (kind) {
            case CREATE -> create(List.of(validTopic(poolName(), cluster)), false);
            case CREATE_ASSIGNED -> create(List.of(assignedTopic(poolName(), cluster)), false);
            case CREATE_INVALID -> create(List.of(invalidTopic(cluster)), false);
            case CREATE_BATCH_WITH_DUPLICATE -> duplicateBatch(cluster);
            case VALIDATE_ONLY -> create(List.of(random.nextBoolean() ? validTopic(poolName(), cluster)
                    : invalidTopic(cluster)), true);
            case DELETE -> new AdminCall.DeleteTopics(List.of(presentOrPoolName()));
            case DELETE_AND_RECREATE -> deleteAndRecreate(cluster);
            case CREATE_PARTITIONS -> grow();
            case ALTER_CONFIGS -> alter();
            case DESCRIBE -> new AdminCall.DescribeTopic(presentOrPoolName());
            case LIST -> new AdminCall.ListTopics();
        };
    }

    private Kind draw() {
        int total = 0;
        for (Kind kind : Kind.values()) {
            total += kind.weight;
        }
        int pick = random.nextInt(total);
        for (Kind kind : Kind.values()) {
            pick -= kind.weight;
            if (pick < 0) {
                return kind;
            }
        }
        throw new IllegalStateException("weights changed while drawing");
    }

    private String poolName() {
        return "topic-" + random.nextInt(poolSize);
    }

    private String presentOrPoolName() {
        List<String> present = model.presentNames();
        return present.isEmpty() || random.nextInt(4) == 0 ? poolName() : present.get(random.nextInt(present.size()));
    }

    private static AdminCall create(List<Topic> topics, boolean validateOnly) {
        return new AdminCall.CreateTopics(new CreateTopicsRequest(topics, validateOnly));
    }

    private Topic validTopic(String name, ClusterView cluster) {
        int partitions = random.nextInt(5) == 0 ? CreateTopicsRequest.DEFAULT : 1 + random.nextInt(PARTITIONS_MAX);
        int unfenced = Math.max(1, cluster.surelyUnfenced().size());
        int rf = random.nextInt(5) == 0 ? CreateTopicsRequest.DEFAULT : 1 + random.nextInt(Math.min(3, unfenced));
        return Topic.of(name, partitions, rf).withConfigs(validConfigs());
    }

    private Topic assignedTopic(String name, ClusterView cluster) {
        List<Integer> brokers = new ArrayList<>(cluster.registered());
        int rf = 1 + random.nextInt(Math.min(3, brokers.size()));
        int partitions = 1 + random.nextInt(PARTITIONS_MAX);
        List<PartitionAssignment> assignments = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            Collections.shuffle(brokers, random);
            assignments.add(new PartitionAssignment(p, List.copyOf(brokers.subList(0, rf))));
        }
        return new Topic(name, CreateTopicsRequest.DEFAULT, CreateTopicsRequest.DEFAULT, assignments, validConfigs());
    }

    private Topic invalidTopic(ClusterView cluster) {
        InvalidTopics.Defect[] defects = InvalidTopics.Defect.values();
        return InvalidTopics.make(defects[random.nextInt(defects.length)], "bad-" + freshNames++, cluster.registered(),
                random);
    }

    private List<Config> validConfigs() {
        List<Config> configs = new ArrayList<>();
        if (random.nextInt(3) == 0) {
            configs.add(new Config("retention.ms", Long.toString(1 + random.nextInt(1_000_000))));
        }
        if (random.nextInt(4) == 0) {
            configs.add(new Config("cleanup.policy", random.nextBoolean() ? "compact" : "compact,delete"));
        }
        return configs;
    }

    private AdminCall duplicateBatch(ClusterView cluster) {
        String duplicated = "dup-" + freshNames++;
        List<Topic> topics = new ArrayList<>();
        topics.add(Topic.of(duplicated, 1, 1));
        topics.add(validTopic(poolName(), cluster));
        topics.add(Topic.of(duplicated, 2, 1));
        Collections.shuffle(topics, random);
        return create(topics, false);
    }

    private AdminCall deleteAndRecreate(ClusterView cluster) {
        String name = presentOrPoolName();
        followUps.add(create(List.of(validTopic(name, cluster)), false));
        return new AdminCall.DeleteTopics(List.of(name));
    }

    private AdminCall grow() {
        String name = presentOrPoolName();
        int current = model.partitions(name);
        int count = random.nextInt(4) == 0 ? Math.max(1, current - random.nextInt(2))
                : current + 1 + random.nextInt(2);
        return new AdminCall.CreatePartitions(List.of(new CreatePartitionsTopic(name, count, List.of())));
    }

    private AdminCall alter() {
        String name = presentOrPoolName();
        List<AlterConfigOp> ops = new ArrayList<>();
        int kind = random.nextInt(6);
        if (kind == 0) {
            ops.add(new AlterConfigOp("retention.ms", OpType.SET, "soon"));
        } else if (kind == 1) {
            ops.add(new AlterConfigOp("retention.ms", OpType.DELETE, null));
        } else {
            ops.add(new AlterConfigOp("retention.ms", OpType.SET, Long.toString(1 + random.nextInt(1_000_000))));
            if (random.nextBoolean()) {
                ops.add(new AlterConfigOp("segment.bytes", OpType.SET, Integer.toString(1_048_576 + random.nextInt(1000))));
            }
        }
        return new AdminCall.AlterConfigs(List.of(new AlterConfigsResource(ConfigResource.topic(name), ops)));
    }
}
