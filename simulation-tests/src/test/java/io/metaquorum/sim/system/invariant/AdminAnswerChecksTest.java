package io.metaquorum.sim.system.invariant;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.linearizability.History;
import io.metaquorum.sim.system.workload.AdminAnswer;
import io.metaquorum.sim.system.workload.AdminCall;
import io.metaquorum.sim.system.workload.ClusterView;
import io.metaquorum.sim.system.workload.ItemResult;
import io.metaquorum.sim.system.workload.ReferenceModel;
import java.util.BitSet;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The checks on admin answers, each fed a good history and a bad one: quiet on the first, firing by name on the second. */
class AdminAnswerChecksTest {
    private static final TreeSet<Integer> BROKERS = new TreeSet<>(List.of(1, 2, 3));
    private static final ClusterView ALL_SURE = ClusterView.stable(BROKERS);
    private static final ClusterView NONE_SURE = new ClusterView(BROKERS, new TreeSet<>());
    private static final long STEPS_MAX = 100_000;

    private static void assertFails(String check, Executable run) {
        CheckFailure failure = assertThrows(CheckFailure.class, run);
        assertEquals(check, failure.invariant(), failure.getMessage());
    }

    private static AdminCall create(String name) {
        return new AdminCall.CreateTopics(new CreateTopicsRequest(List.of(CreateTopicsRequest.Topic.of(name, 1, 1)),
                false));
    }

    private static List<ReferenceModel.FinalItem> answered(String name, ErrorCode code) {
        return List.of(new ReferenceModel.FinalItem(name, code, true, false));
    }

    /** Valid creates of ten fresh names, every other one answered {@code refusal}, judged with {@code view}. */
    private static ReferenceModel createMany(ErrorCode refusal, ClusterView view) {
        ReferenceModel model = new ReferenceModel(1, 1);
        PredictedAnswerCheck check = new PredictedAnswerCheck(model);
        for (int i = 0; i < 10; i++) {
            AdminCall call = create("t" + i);
            model.onStart(call);
            check.onFinish(call, answered("t" + i, i % 2 == 0 ? ErrorCode.NONE : refusal), view);
        }
        return model;
    }

    @Test
    void aValidCreateMayBeRefusedForTooFewBrokersWhileTooFewAreSurelyUnfenced() {
        ReferenceModel model = createMany(ErrorCode.INVALID_REPLICATION_FACTOR, NONE_SURE);
        assertEquals(10, model.judgedByCode().values().stream().mapToInt(Integer::intValue).sum());
        assertDoesNotThrow(() -> createMany(ErrorCode.NONE, ALL_SURE));
    }

    /** A controller that refuses half of all valid creates while enough brokers are surely unfenced is caught. */
    @Test
    void aControllerRefusingValidCreatesWithEnoughBrokersUnfencedIsCaught() {
        CheckFailure failure = assertThrows(CheckFailure.class,
                () -> createMany(ErrorCode.INVALID_REPLICATION_FACTOR, ALL_SURE));
        assertEquals(PredictedAnswerCheck.NAME, failure.invariant());
        assertTrue(failure.getMessage().contains("item 't1'"), failure.getMessage());
        ClusterView oneSure = new ClusterView(BROKERS, new TreeSet<>(List.of(2)));
        assertFails(PredictedAnswerCheck.NAME, () -> createMany(ErrorCode.INVALID_REPLICATION_FACTOR, oneSure));
    }

    @Test
    void aSecondCreateOfATopicAnsweredNoneIsCaught() {
        ReferenceModel model = new ReferenceModel(1, 1);
        PredictedAnswerCheck check = new PredictedAnswerCheck(model);
        for (ErrorCode code : List.of(ErrorCode.NONE, ErrorCode.TOPIC_ALREADY_EXISTS)) {
            model.onStart(create("t"));
            check.onFinish(create("t"), answered("t", code), ALL_SURE);
        }
        model.onStart(create("t"));
        assertFails(PredictedAnswerCheck.NAME, () -> check.onFinish(create("t"), answered("t", ErrorCode.NONE),
                ALL_SURE));
    }

    private static AdminAnswer read(long offset) {
        return new AdminAnswer(List.of(new ItemResult("t", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, new AdminOutput.Described(
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null, offset))), 1);
    }

    @Test
    void oneClientsReadsFromOneNodeIncarnationNeverGoBack() {
        ReadOffsetsCheck check = new ReadOffsetsCheck();
        check.observe(0, "1/1", read(10));
        check.observe(0, "1/1", read(10));
        check.observe(0, "1/1", read(12));
        check.observe(1, "1/1", read(4));
        check.observe(0, "2/1", read(3));
        check.observe(0, "1/2", read(5));
        assertFails(ReadOffsetsCheck.NAME, () -> check.observe(0, "1/1", read(11)));
    }

    private static AdminInput.CreateTopic createInput(String name) {
        return new AdminInput.CreateTopic(name, 1, new TreeMap<>(), false);
    }

    @Test
    void aWriteHistoryThatNoOrderExplainsIsCaught() {
        History<AdminInput, AdminOutput> good = new History<>();
        good.complete(good.invoke(0, createInput("t"), 0), AdminOutput.WriteResult.ok("id-1"), 1);
        good.complete(good.invoke(1, createInput("t"), 2), AdminOutput.WriteResult.failed(
                ErrorCode.TOPIC_ALREADY_EXISTS), 3);
        assertDoesNotThrow(() -> WriteHistoryCheck.check(good.operations(), new BitSet(), STEPS_MAX));

        History<AdminInput, AdminOutput> bad = new History<>();
        bad.complete(bad.invoke(0, createInput("t"), 0), AdminOutput.WriteResult.ok("id-1"), 1);
        bad.complete(bad.invoke(1, createInput("t"), 2), AdminOutput.WriteResult.ok("id-2"), 3);
        assertFails(WriteHistoryCheck.NAME, () -> WriteHistoryCheck.check(bad.operations(), new BitSet(), STEPS_MAX));
    }

    /** An attempt the simulator saw take no effect is left out of the history only while its outcome is unknown. */
    @Test
    void anAttemptWithoutEffectIsLeftOutOnlyWhileUnanswered() {
        History<AdminInput, AdminOutput> history = new History<>();
        int lost = history.invoke(0, createInput("t"), 0);
        history.ambiguous(lost);
        history.complete(history.invoke(1, createInput("t"), 2), AdminOutput.WriteResult.failed(
                ErrorCode.TOPIC_ALREADY_EXISTS), 3);
        assertDoesNotThrow(() -> WriteHistoryCheck.check(history.operations(), new BitSet(), STEPS_MAX),
                "the lost create may have made it");
        BitSet noEffect = new BitSet();
        noEffect.set(lost);
        assertFails(WriteHistoryCheck.NAME, () -> WriteHistoryCheck.check(history.operations(), noEffect, STEPS_MAX));

        History<AdminInput, AdminOutput> answered = new History<>();
        int created = answered.invoke(0, createInput("t"), 0);
        answered.complete(created, AdminOutput.WriteResult.ok("id-1"), 1);
        answered.complete(answered.invoke(1, createInput("t"), 2), AdminOutput.WriteResult.failed(
                ErrorCode.TOPIC_ALREADY_EXISTS), 3);
        BitSet answeredNoEffect = new BitSet();
        answeredNoEffect.set(created);
        assertDoesNotThrow(() -> WriteHistoryCheck.check(answered.operations(), answeredNoEffect, STEPS_MAX));
    }

    @Test
    void anAnswerCodeTheModelDoesNotKnowIsCaught() {
        History<AdminInput, AdminOutput> history = new History<>();
        history.complete(history.invoke(0, createInput("t"), 0), AdminOutput.WriteResult.failed(
                ErrorCode.INVALID_REPLICATION_FACTOR), 1);
        history.complete(history.invoke(0, new AdminInput.DeleteTopic("t"), 2), AdminOutput.WriteResult.failed(
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION), 3);
        history.ambiguous(history.invoke(0, new AdminInput.CreatePartitions("t", 3), 4));
        assertDoesNotThrow(() -> AnswerCodeCheck.check(history.operations()), "known codes, and an unknown outcome");
        history.complete(history.invoke(1, new AdminInput.DeleteTopic("t"), 6), AdminOutput.WriteResult.failed(
                ErrorCode.INVALID_CONFIG), 7);
        assertFails(AnswerCodeCheck.NAME, () -> AnswerCodeCheck.check(history.operations()));
        History<AdminInput, AdminOutput> stale = new History<>();
        stale.complete(stale.invoke(0, createInput("u"), 0), AdminOutput.WriteResult.failed(
                ErrorCode.STALE_BROKER_EPOCH), 1);
        assertFails(AnswerCodeCheck.NAME, () -> AnswerCodeCheck.check(stale.operations()));
        assertFails(WriteHistoryCheck.NAME, () -> WriteHistoryCheck.check(stale.operations(), new BitSet(),
                STEPS_MAX));
    }
}
