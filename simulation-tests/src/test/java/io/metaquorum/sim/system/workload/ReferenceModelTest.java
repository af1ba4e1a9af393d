package io.metaquorum.sim.system.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import io.metaquorum.protocol.ErrorCode;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The reference model's predictions, case by case, and how it loosens them when it cannot be sure. */
class ReferenceModelTest {
    private static final ClusterView CLUSTER = ClusterView.stable(new TreeSet<>(List.of(1, 2, 3)));

    private final ReferenceModel model = new ReferenceModel(1, 1);

    private static AdminCall create(Topic... topics) {
        return new AdminCall.CreateTopics(new CreateTopicsRequest(List.of(topics), false));
    }

    private Set<ErrorCode> expected(AdminCall call, String item) {
        return model.expect(call, CLUSTER).get(item).allowed();
    }

    /** Runs a call to its end with the given final code for its one item. */
    private void finish(AdminCall call, ErrorCode code) {
        model.onStart(call);
        model.onFinish(call, List.of(new ReferenceModel.FinalItem(call.items().get(0), code, true, false)), CLUSTER);
    }

    @Test
    void everyDefectHasItsCode() {
        Random random = new Random(3);
        for (InvalidTopics.Defect defect : InvalidTopics.Defect.values()) {
            Topic topic = InvalidTopics.make(defect, "fresh", CLUSTER.registered(), random);
            ErrorCode code = switch (defect) {
                case EMPTY_NAME, DOT_NAME, LONG_NAME, ILLEGAL_CHARACTER -> ErrorCode.INVALID_TOPIC_EXCEPTION;
                case INTERNAL_NAME, ASSIGNMENT_WITH_COUNTS -> ErrorCode.INVALID_REQUEST;
                case ZERO_PARTITIONS, NEGATIVE_PARTITIONS -> ErrorCode.INVALID_PARTITIONS;
                case ZERO_REPLICATION_FACTOR, REPLICATION_FACTOR_ABOVE_BROKERS -> ErrorCode.INVALID_REPLICATION_FACTOR;
                case ASSIGNMENT_GAP, ASSIGNMENT_EMPTY_REPLICAS, ASSIGNMENT_BROKER_TWICE, ASSIGNMENT_UNREGISTERED_BROKER,
                        ASSIGNMENT_UNEQUAL_COUNTS -> ErrorCode.INVALID_REPLICA_ASSIGNMENT;
                case CONFIG_UNKNOWN, CONFIG_NOT_A_NUMBER, CONFIG_OUT_OF_RANGE, CONFIG_NOT_IN_LIST, CONFIG_TWICE ->
                        ErrorCode.INVALID_CONFIG;
            };
            assertEquals(EnumSet.of(code), expected(create(topic), topic.name()), defect.name());
        }
    }

    @Test
    void aNameTwiceInOneRequestIsInvalidForBothEntriesOnly() {
        AdminCall call = create(Topic.of("d", 1, 1), Topic.of("ok", 1, 1), Topic.of("d", 2, 1));
        assertEquals(EnumSet.of(ErrorCode.INVALID_REQUEST), expected(call, "d"));
        assertEquals(EnumSet.of(ErrorCode.NONE), expected(call, "ok"));
    }

    @Test
    void existenceDecidesWhileCertain() {
        AdminCall create = create(Topic.of("t", 3, 2));
        assertEquals(EnumSet.of(ErrorCode.NONE), expected(create, "t"));
        finish(create, ErrorCode.NONE);
        assertEquals(EnumSet.of(ErrorCode.TOPIC_ALREADY_EXISTS), expected(create, "t"));
        AdminCall grow = new AdminCall.CreatePartitions(List.of(new CreatePartitionsTopic("t", 3, List.of())));
        assertEquals(EnumSet.of(ErrorCode.INVALID_PARTITIONS), expected(grow, "t"));
        AdminCall delete = new AdminCall.DeleteTopics(List.of("t"));
        finish(delete, ErrorCode.NONE);
        assertEquals(EnumSet.of(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION), expected(delete, "t"));
        assertEquals(List.of(), model.mismatches());
    }

    @Test
    void aWrongAnswerIsAMismatch() {
        finish(create(Topic.of("t", 1, 1)), ErrorCode.NONE);
        finish(create(Topic.of("t", 1, 1)), ErrorCode.NONE);
        assertEquals(1, model.mismatches().size());
        assertTrue(model.mismatches().get(0).toString().contains("TOPIC_ALREADY_EXISTS"));
    }

    @Test
    void anAmbiguousAttemptOrAnOverlapMakesTheNameUnsureForGood() {
        AdminCall create = create(Topic.of("t", 1, 1));
        model.onStart(create);
        model.onFinish(create, List.of(new ReferenceModel.FinalItem("t", ErrorCode.REQUEST_TIMED_OUT, false, true)),
                CLUSTER);
        assertEquals(NameKnowledge.UNSURE, model.knowledge("t"));
        assertEquals(EnumSet.of(ErrorCode.NONE, ErrorCode.TOPIC_ALREADY_EXISTS), expected(create, "t"));

        AdminCall first = create(Topic.of("u", 1, 1));
        AdminCall second = create(Topic.of("u", 1, 1));
        model.onStart(first);
        model.onStart(second);
        assertEquals(NameKnowledge.UNSURE, model.knowledge("u"));
        model.onFinish(second, List.of(new ReferenceModel.FinalItem("u", ErrorCode.NONE, true, false)), CLUSTER);
        model.onFinish(first, List.of(new ReferenceModel.FinalItem("u", ErrorCode.TOPIC_ALREADY_EXISTS, true, false)),
                CLUSTER);
        assertEquals(List.of(), model.mismatches());
    }

    @Test
    void aReplicationFactorSomeBrokersMayNotMeetGoesEitherWay() {
        ClusterView shaky = new ClusterView(new TreeSet<>(List.of(1, 2, 3)), new TreeSet<>(List.of(1)));
        AdminCall call = create(Topic.of("t", 1, 2));
        assertEquals(EnumSet.of(ErrorCode.NONE, ErrorCode.INVALID_REPLICATION_FACTOR),
                model.expect(call, shaky).get("t").allowed());
        assertEquals(EnumSet.of(ErrorCode.INVALID_REPLICATION_FACTOR),
                model.expect(create(Topic.of("t", 1, 4)), shaky).get("t").allowed());
    }

    /** Production refuses an assignment in which any one partition has every replica fenced. */
    @Test
    void anAssignmentIsSurelyValidOnlyIfEveryPartitionHasASurelyUnfencedReplica() {
        ClusterView shaky = new ClusterView(new TreeSet<>(List.of(1, 2, 3)), new TreeSet<>(List.of(1)));
        List<CreateTopicsRequest.PartitionAssignment> served = List.of(
                new CreateTopicsRequest.PartitionAssignment(0, List.of(1, 2)),
                new CreateTopicsRequest.PartitionAssignment(1, List.of(3, 1)));
        assertEquals(EnumSet.of(ErrorCode.NONE), model.expect(create(assigned("t", served)), shaky).get("t").allowed());
        List<CreateTopicsRequest.PartitionAssignment> unsure = List.of(
                new CreateTopicsRequest.PartitionAssignment(0, List.of(1, 2)),
                new CreateTopicsRequest.PartitionAssignment(1, List.of(2, 3)));
        assertEquals(EnumSet.of(ErrorCode.NONE, ErrorCode.INVALID_REPLICA_ASSIGNMENT),
                model.expect(create(assigned("t", unsure)), shaky).get("t").allowed());
    }

    private static Topic assigned(String name, List<CreateTopicsRequest.PartitionAssignment> assignments) {
        return new Topic(name, CreateTopicsRequest.DEFAULT, CreateTopicsRequest.DEFAULT, assignments, List.of());
    }

    @Test
    void configsAreCheckedAgainstTheirTypesAndRanges() {
        assertTrue(ConfigSpec.valid("cleanup.policy", "compact,delete"));
        assertTrue(ConfigSpec.valid("retention.ms", "-1"));
        assertTrue(!ConfigSpec.valid("retention.ms", "-2"));
        assertTrue(!ConfigSpec.valid("min.insync.replicas", "0"));
        assertTrue(!ConfigSpec.valid("segment.bytes", "1000"));
        assertTrue(!ConfigSpec.valid("no.such.config", "1"));
        assertTrue(ConfigSpec.valid("unclean.leader.election.enable", "true"));
    }
}
