package io.metaquorum.sim.system.world;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FenceBrokerRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.UnfenceBrokerRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.invariant.PredictedAnswerCheck;
import io.metaquorum.sim.system.workload.AdminCall;
import io.metaquorum.sim.system.workload.ClusterView;
import io.metaquorum.sim.system.workload.ReferenceModel;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Which brokers are surely unfenced at a decision, and how that makes a refused valid create a failure. */
class SurelyUnfencedBrokersTest {
    private static final TreeSet<Integer> BROKERS = new TreeSet<>(List.of(1, 2, 3));

    private static MetadataRecord register(int broker) {
        return MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder().setBrokerId(broker)
                .setIncarnationId(Uuid.newBuilder().setMostSignificantBits(broker).setLeastSignificantBits(1))
                .setBrokerEpoch(broker).setFenced(true)).build();
    }

    private static MetadataRecord unfence(int broker) {
        return MetadataRecord.newBuilder().setUnfenceBroker(UnfenceBrokerRecord.newBuilder().setBrokerId(broker)
                .setBrokerEpoch(broker)).build();
    }

    private static MetadataRecord fence(int broker) {
        return MetadataRecord.newBuilder().setFenceBroker(FenceBrokerRecord.newBuilder().setBrokerId(broker)
                .setBrokerEpoch(broker)).build();
    }

    /** Brokers 1-3 registered and unfenced, then broker 3 fenced: the committed log as the checkers replay it. */
    private static MetadataImage committed() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        List<MetadataRecord> records = List.of(register(1), register(2), register(3), unfence(1), unfence(2),
                unfence(3), fence(3));
        for (int i = 0; i < records.size(); i++) {
            delta.replay(records.get(i), i, 1);
        }
        return delta.apply();
    }

    @Test
    void theBrokersUnfencedInTheCommittedLogAreSureWhenNothingIsAppendedBeyondIt() {
        MetadataImage image = committed();
        long end = image.committedEndOffset();
        assertEquals(new TreeSet<>(List.of(1, 2)), SurelyUnfencedBrokers.atDecision(image, end, BROKERS));
        assertEquals(new TreeSet<>(List.of(2)), SurelyUnfencedBrokers.atDecision(image, end,
                new TreeSet<>(List.of(2, 3))), "only registered brokers of the view");
        assertEquals(new TreeSet<>(), SurelyUnfencedBrokers.atDecision(image, end + 3, BROKERS),
                "records appended but not committed may fence anyone");
        assertEquals(new TreeSet<>(), SurelyUnfencedBrokers.atDecision(image, end - 1, BROKERS),
                "a decision image behind the committed log may show anyone fenced");
    }

    @Test
    void aCallIsJudgedByWhatEveryOneOfItsDecisionsWasSureOf() {
        SurelyUnfencedBrokers views = new SurelyUnfencedBrokers(2);
        views.onStart(0);
        assertEquals(new TreeSet<>(), views.view(0, BROKERS).surelyUnfenced(), "nothing decided yet");
        views.onDecision(0, new TreeSet<>(List.of(1, 2)));
        views.onDecision(0, new TreeSet<>(List.of(2, 3)));
        views.onDecision(1, new TreeSet<>(List.of(1)));
        assertEquals(new TreeSet<>(List.of(2)), views.view(0, BROKERS).surelyUnfenced());
        assertEquals(new TreeSet<>(List.of(1)), views.view(1, BROKERS).surelyUnfenced());
        views.onStart(0);
        assertEquals(new TreeSet<>(), views.view(0, BROKERS).surelyUnfenced(), "a new call starts unsure");
    }

    private static void judgeRefusedCreate(ClusterView view) {
        AdminCall call = new AdminCall.CreateTopics(new CreateTopicsRequest(List.of(CreateTopicsRequest.Topic.of("t",
                1, 1)), false));
        ReferenceModel model = new ReferenceModel(1, 1);
        model.onStart(call);
        new PredictedAnswerCheck(model).onFinish(call, List.of(new ReferenceModel.FinalItem("t",
                ErrorCode.INVALID_REPLICATION_FACTOR, true, false)), view);
    }

    /** A create of replication factor 1 refused for too few brokers, decided while two were surely unfenced. */
    @Test
    void aValidCreateRefusedWhileEnoughBrokersWereSurelyUnfencedFails() {
        MetadataImage image = committed();
        SurelyUnfencedBrokers views = new SurelyUnfencedBrokers(1);
        views.onStart(0);
        views.onDecision(0, SurelyUnfencedBrokers.atDecision(image, image.committedEndOffset() + 1, BROKERS));
        assertDoesNotThrow(() -> judgeRefusedCreate(views.view(0, BROKERS)), "decided on uncommitted records");
        views.onStart(0);
        SortedSet<Integer> sure = SurelyUnfencedBrokers.atDecision(image, image.committedEndOffset(), BROKERS);
        views.onDecision(0, sure);
        CheckFailure failure = assertThrows(CheckFailure.class, () -> judgeRefusedCreate(views.view(0, BROKERS)));
        assertEquals(PredictedAnswerCheck.NAME, failure.invariant(), failure.getMessage());
    }
}
