package io.metaquorum.sim.system.workload;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigOp;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource;
import io.metaquorum.metadata.controller.ConfigurationControlManager.OpType;
import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Predicts the code of every item of the workload's calls and judges the answers. What it
 * tracks: per topic name, whether it exists and with how many partitions and what replication
 * factor, as long as that is certain ({@link NameKnowledge}). Deterministic cases (invalid
 * names, counts, assignments, configs, duplicates in one request, an internal name) are
 * predicted exactly whatever the state; answers that depend on the state are predicted
 * exactly while the name is certain and loosely after.
 *
 * <p>Reads are predicted loosely always: production serves them from the committed image of
 * whichever node is asked, which may lag; the linearizability history judges what they saw.
 *
 * <p>An item answered TOPIC_AUTHORIZATION_FAILED is not judged here and changes nothing: the
 * ACLs decided it, and the authorization check judged that answer against them where it was
 * given ({@code AuthorizationCheck}); a denied item never reaches the controller, so the model
 * predicts the allowed items as it did before ACLs existed.
 *
 * <p>Use: {@link #onStart} when a call starts, {@link #onFinish} with its final per-item codes
 * (and which items saw an ambiguous attempt) when it ends; mismatches accumulate.
 */
public final class ReferenceModel {
    /** A prediction the cluster's answer did not meet. */
    public record Mismatch(AdminCall call, Expectation expected, ErrorCode actual) {
        @Override
        public String toString() {
            return "item '" + expected.item() + "' of " + call + ": expected " + expected.allowed() + " ("
                    + expected.why() + "), got " + actual;
        }
    }

    /**
     * One item's final answer as the client saw it.
     *
     * @param definite       a final code came back (else the call gave up on the item)
     * @param sawAmbiguity   some attempt of the item got no definite answer, so it may have
     *                       taken effect before the final one
     */
    public record FinalItem(String item, ErrorCode code, boolean definite, boolean sawAmbiguity) {
    }

    private static final class NameState {
        final String name;
        NameKnowledge knowledge = NameKnowledge.ABSENT;
        int partitions;
        int replicationFactor;
        int inFlight;

        NameState(String name) {
            this.name = name;
        }
    }

    private final int defaultPartitions;
    private final int defaultReplicationFactor;
    private final TreeMap<String, NameState> names = new TreeMap<>();
    /** The names whose knowledge is PRESENT: kept beside {@link #names}, which grows by every invalid name drawn. */
    private final TreeSet<String> present = new TreeSet<>();
    private final List<Mismatch> mismatches = new ArrayList<>();
    private final TreeMap<ErrorCode, Integer> judged = new TreeMap<>();
    private long deterministicJudged;
    private long denied;

    public ReferenceModel(int defaultPartitions, int defaultReplicationFactor) {
        this.defaultPartitions = defaultPartitions;
        this.defaultReplicationFactor = defaultReplicationFactor;
    }

    public NameKnowledge knowledge(String name) {
        NameState state = names.get(name);
        return state == null ? NameKnowledge.ABSENT : state.knowledge;
    }

    /** Names known to exist, in order (the workload deletes and grows these). */
    public List<String> presentNames() {
        return new ArrayList<>(present);
    }

    private void know(NameState state, NameKnowledge knowledge) {
        state.knowledge = knowledge;
        if (knowledge == NameKnowledge.PRESENT) {
            present.add(state.name);
        } else {
            present.remove(state.name);
        }
    }

    public int partitions(String name) {
        NameState state = names.get(name);
        return state == null ? 0 : state.partitions;
    }

    public void onStart(AdminCall call) {
        for (String name : topicNames(call)) {
            NameState state = names.computeIfAbsent(name, NameState::new);
            state.inFlight++;
            if (state.inFlight > 1) {
                know(state, NameKnowledge.UNSURE);
            }
        }
    }

    /** Judges the final answers of {@code call}; {@code cluster} is the broker view during it. */
    public void onFinish(AdminCall call, List<FinalItem> results, ClusterView cluster) {
        for (FinalItem result : results) {
            NameState state = names.get(result.item());
            if (result.sawAmbiguity() && state != null) {
                know(state, NameKnowledge.UNSURE);
            }
        }
        Map<String, Expectation> expected = expect(call, cluster);
        for (FinalItem result : results) {
            Expectation expectation = expected.get(result.item());
            Invariants.check(expectation != null, "no prediction for item %s of %s", result.item(), call);
            if (!result.definite()) {
                continue;
            }
            if (result.code() == ErrorCode.TOPIC_AUTHORIZATION_FAILED) {
                denied++;
                continue;
            }
            judged.merge(result.code(), 1, Integer::sum);
            deterministicJudged += expectation.deterministic() ? 1 : 0;
            NameState state = names.get(result.item());
            if (!expectation.admits(result.code())) {
                mismatches.add(new Mismatch(call, expectation, result.code()));
            } else if (state != null && state.knowledge != NameKnowledge.UNSURE) {
                apply(call, result, state);
            }
        }
        for (String name : topicNames(call)) {
            names.get(name).inFlight--;
        }
    }

    public List<Mismatch> mismatches() {
        return List.copyOf(mismatches);
    }

    /** How many definite answers were judged, by code. */
    public Map<ErrorCode, Integer> judgedByCode() {
        return new TreeMap<>(judged);
    }

    /** How many definite answers were TOPIC_AUTHORIZATION_FAILED, left to the authorization check. */
    public long denied() {
        return denied;
    }

    /** How many of them were deterministic cases (exactly one code allowed). */
    public long deterministicJudged() {
        return deterministicJudged;
    }

    /** The prediction for every item of {@code call}, by item key. */
    public Map<String, Expectation> expect(AdminCall call, ClusterView cluster) {
        Map<String, Expectation> expected = new LinkedHashMap<>();
        if (call instanceof AdminCall.CreateTopics create) {
            Map<String, Integer> counts = new TreeMap<>();
            create.request().topics().forEach(t -> counts.merge(t.name(), 1, Integer::sum));
            for (CreateTopicsRequest.Topic topic : create.request().topics()) {
                expected.putIfAbsent(topic.name(), CreatePrediction.predict(topic, counts.get(topic.name()),
                        knowledge(topic.name()), cluster, defaultPartitions, defaultReplicationFactor));
            }
        } else if (call instanceof AdminCall.DeleteTopics delete) {
            for (String name : delete.names()) {
                expected.put(name, byExistence(name, Expectation.of(name, "exists", ErrorCode.NONE)));
            }
        } else if (call instanceof AdminCall.CreatePartitions grow) {
            // The workload never lists a topic twice in one CreatePartitions call.
            for (CreatePartitionsTopic topic : grow.topics()) {
                expected.put(topic.name(), growth(topic, cluster));
            }
        } else if (call instanceof AdminCall.AlterConfigs alter) {
            for (AlterConfigsResource resource : alter.resources()) {
                String name = resource.resource().name();
                expected.put(name, byExistence(name, configs(name, resource.ops())));
            }
        } else if (call instanceof AdminCall.DescribeTopic describe) {
            expected.put(describe.name(), Expectation.of(describe.name(), "a read may lag", ErrorCode.NONE,
                    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION));
        } else {
            expected.put(AdminCall.ListTopics.ITEM, Expectation.of(AdminCall.ListTopics.ITEM, "a list",
                    ErrorCode.NONE));
        }
        return expected;
    }

    /** {@code ifPresent} when the name exists, UNKNOWN_TOPIC_OR_PARTITION when not, both when unsure. */
    private Expectation byExistence(String name, Expectation ifPresent) {
        Expectation absent = Expectation.of(name, "does not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        return switch (knowledge(name)) {
            case PRESENT -> ifPresent;
            case ABSENT -> absent;
            case UNSURE -> ifPresent.or("it may not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        };
    }

    private Expectation growth(CreatePartitionsTopic topic, ClusterView cluster) {
        String name = topic.name();
        NameState state = names.get(name);
        if (knowledge(name) == NameKnowledge.UNSURE) {
            return Expectation.of(name, "unsure", ErrorCode.NONE, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    ErrorCode.INVALID_PARTITIONS, ErrorCode.INVALID_REPLICATION_FACTOR);
        }
        if (knowledge(name) == NameKnowledge.ABSENT) {
            return Expectation.of(name, "does not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
        }
        if (topic.count() <= state.partitions) {
            return Expectation.of(name, "not an increase over " + state.partitions, ErrorCode.INVALID_PARTITIONS);
        }
        Expectation ok = Expectation.of(name, "an increase", ErrorCode.NONE);
        return state.replicationFactor <= cluster.surelyUnfenced().size() ? ok
                : ok.or("too few brokers may be unfenced", ErrorCode.INVALID_REPLICATION_FACTOR);
    }

    private static Expectation configs(String name, List<AlterConfigOp> ops) {
        for (AlterConfigOp op : ops) {
            boolean valid = op.op() == OpType.SET ? ConfigSpec.valid(op.name(), op.value()) : ConfigSpec.known(op.name());
            if (!valid) {
                return Expectation.of(name, "invalid config " + op.name() + "=" + op.value(), ErrorCode.INVALID_CONFIG);
            }
        }
        return Expectation.of(name, "valid configs", ErrorCode.NONE);
    }

    private void apply(AdminCall call, FinalItem result, NameState state) {
        if (call instanceof AdminCall.CreateTopics create) {
            if (result.code() == ErrorCode.NONE && !create.request().validateOnly()) {
                CreateTopicsRequest.Topic topic = create.request().topics().stream()
                        .filter(t -> t.name().equals(result.item())).findFirst().orElseThrow();
                know(state, NameKnowledge.PRESENT);
                state.partitions = topic.assignments().isEmpty() ? resolve(topic.numPartitions(), defaultPartitions)
                        : topic.assignments().size();
                state.replicationFactor = topic.assignments().isEmpty()
                        ? resolve(topic.replicationFactor(), defaultReplicationFactor)
                        : topic.assignments().get(0).brokers().size();
            }
        } else if (call instanceof AdminCall.DeleteTopics && result.code() == ErrorCode.NONE) {
            know(state, NameKnowledge.ABSENT);
        } else if (call instanceof AdminCall.CreatePartitions grow && result.code() == ErrorCode.NONE) {
            state.partitions = grow.topics().stream().filter(t -> t.name().equals(result.item())).findFirst()
                    .orElseThrow().count();
        }
    }

    private static int resolve(int given, int defaultValue) {
        return given == CreateTopicsRequest.DEFAULT ? defaultValue : given;
    }

    /**
     * The topic names a write touches. Reads are left out: they change nothing, so one that
     * overlaps a write does not make the write's answer uncertain.
     */
    private static List<String> topicNames(AdminCall call) {
        return call.writes() ? call.items() : List.of();
    }
}
