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
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Known good and known bad admin histories, judged by {@link AdminModel} split by {@link AdminPartitioner}. */
class AdminHistoryTest {
    private final History<AdminInput, AdminOutput> history = new History<>();
    private long clock;

    private static CreateTopic create(String name, int partitions) {
        return new CreateTopic(name, partitions, new TreeMap<>(), false);
    }

    private static Described found(String id, int partitions, long offset) {
        return new Described(ErrorCode.NONE, new TopicView(id, partitions, new TreeMap<>()), offset);
    }

    private static Described missing(long offset) {
        return new Described(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null, offset);
    }

    private int invoke(int client, AdminInput input) {
        return history.invoke(client, input, clock++);
    }

    private void answer(int op, AdminOutput output) {
        history.complete(op, output, clock++);
    }

    /** Invoked and answered before anything else starts. */
    private void call(int client, AdminInput input, AdminOutput output) {
        answer(invoke(client, input), output);
    }

    private CheckResult check() {
        return new LinearizabilityChecker<>(new AdminModel(), new AdminPartitioner(), 1_000_000)
                .check(history.operations());
    }

    private void assertLinearizable() {
        CheckResult result = check();
        assertTrue(result.linearizable(), result.toString());
    }

    private void assertViolation(String topic) {
        CheckResult result = check();
        assertEquals(CheckResult.Verdict.NOT_LINEARIZABLE, result.verdict(), result.toString());
        assertEquals(topic, result.partition());
    }

    @Test
    void sequentialLifeOfATopic() {
        call(1, create("t", 3), WriteResult.ok("A"));
        call(1, new DescribeTopic("t"), found("A", 3, 10));
        call(1, new CreatePartitions("t", 5), WriteResult.ok(null));
        call(1, new CreatePartitions("t", 4), WriteResult.failed(ErrorCode.INVALID_PARTITIONS));
        call(1, new AlterConfigs("t", List.of(new ConfigChange("retention.ms", "1000"))), WriteResult.ok(null));
        TreeMap<String, String> configs = new TreeMap<>();
        configs.put("retention.ms", "1000");
        call(1, new DescribeTopic("t"), new Described(ErrorCode.NONE, new TopicView("A", 5, configs), 14));
        call(1, new DeleteTopic("t"), WriteResult.ok("A"));
        call(1, new DescribeTopic("t"), missing(15));
        call(1, new DeleteTopic("t"), WriteResult.failed(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION));
        assertLinearizable();
    }

    @Test
    void concurrentCreatesOfOneNameCannotBothSucceed() {
        int first = invoke(1, create("t", 1));
        int second = invoke(2, create("t", 1));
        answer(first, WriteResult.ok("A"));
        answer(second, WriteResult.ok("B"));
        assertViolation("t");
    }

    @Test
    void concurrentCreatesOfOneNameOneWinsOneFindsItThere() {
        int first = invoke(1, create("t", 1));
        int second = invoke(2, create("t", 1));
        answer(second, WriteResult.failed(ErrorCode.TOPIC_ALREADY_EXISTS));
        answer(first, WriteResult.ok("A"));
        assertLinearizable();
    }

    @Test
    void aReadThatStartsAfterAnAcknowledgedCreateMustSeeIt() {
        call(1, create("t", 1), WriteResult.ok("A"));
        call(2, new DescribeTopic("t"), missing(7));
        assertViolation("t");
    }

    @Test
    void aReadConcurrentWithTheCreateMayMissIt() {
        int create = invoke(1, create("t", 1));
        call(2, new DescribeTopic("t"), missing(7));
        answer(create, WriteResult.ok("A"));
        call(2, new DescribeTopic("t"), found("A", 1, 9));
        assertLinearizable();
    }

    @Test
    void aListThatStartsAfterAnAcknowledgedCreateMustShowIt() {
        call(1, create("t", 1), WriteResult.ok("A"));
        call(1, create("u", 1), WriteResult.ok("B"));
        TreeMap<String, String> onlyU = new TreeMap<>();
        onlyU.put("u", "B");
        call(2, new ListTopics(), new Listed(onlyU, 8));
        assertViolation("t");
    }

    @Test
    void aTimedOutCreateMayAppearLater() {
        int create = invoke(1, create("t", 2));
        history.ambiguous(create);
        call(2, new DescribeTopic("t"), missing(3));
        call(2, new DescribeTopic("t"), found("A", 2, 5));
        call(1, create("t", 2), WriteResult.failed(ErrorCode.TOPIC_ALREADY_EXISTS));
        call(2, new DeleteTopic("t"), WriteResult.ok("A"));
        assertLinearizable();
    }

    @Test
    void aTimedOutCreateTakesEffectOnceNotInAndOut() {
        int create = invoke(1, create("t", 2));
        history.ambiguous(create);
        call(2, new DescribeTopic("t"), found("A", 2, 5));
        call(2, new DescribeTopic("t"), missing(6));
        assertViolation("t");
    }

    @Test
    void aRetryAfterAnAmbiguousAttemptMayFindItsOwnTopic() {
        int attempt = invoke(1, create("t", 1));
        history.ambiguous(attempt);
        call(1, create("t", 1), WriteResult.failed(ErrorCode.TOPIC_ALREADY_EXISTS));
        assertLinearizable();
    }

    @Test
    void aStaleReadAfterAnAcknowledgedDeleteIsCaught() {
        call(1, create("t", 1), WriteResult.ok("A"));
        call(2, new DescribeTopic("t"), found("A", 1, 4));
        call(1, new DeleteTopic("t"), WriteResult.ok("A"));
        call(2, new DescribeTopic("t"), found("A", 1, 4));
        assertViolation("t");
    }

    @Test
    void readsLinearizedInOrderNeverGoBackInOffset() {
        call(1, create("t", 1), WriteResult.ok("A"));
        call(2, new DescribeTopic("t"), found("A", 1, 20));
        assertLinearizable();
        // The same content, but served from an older image than a read that already finished:
        // a stale image presented as current.
        call(3, new DescribeTopic("t"), found("A", 1, 12));
        assertViolation("t");
    }

    @Test
    void aRecreatedTopicHasItsNewIdAndTheOldOneIsGone() {
        call(1, create("t", 1), WriteResult.ok("A"));
        call(1, new DeleteTopic("t"), WriteResult.ok("A"));
        call(1, create("t", 4), WriteResult.ok("B"));
        call(2, new DescribeTopic("t"), found("B", 4, 30));
        assertLinearizable();
        call(2, new DescribeTopic("t"), found("A", 1, 31));
        assertViolation("t");
    }

    @Test
    void validateOnlyCreatesNothing() {
        call(1, new CreateTopic("t", 1, new TreeMap<>(), true), WriteResult.ok(null));
        call(2, new DescribeTopic("t"), missing(3));
        assertLinearizable();
        call(1, create("t", 1), WriteResult.ok("A"));
        call(1, new CreateTopic("t", 1, new TreeMap<>(), true), WriteResult.ok(null));
        assertViolation("t");
    }

    @Test
    void errorsTheModelCannotJudgeChangeNothing() {
        call(1, create("bad name!", 1), WriteResult.failed(ErrorCode.INVALID_TOPIC_EXCEPTION));
        call(1, create("t", 1), WriteResult.failed(ErrorCode.INVALID_CONFIG));
        call(2, new DescribeTopic("t"), missing(1));
        assertLinearizable();
    }
}
