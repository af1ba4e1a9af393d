package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The managers as the event loop holds them: decide, append, replay; a standby replays the same log. */
class ControllerManagersTest {
    private static final ControllerManagers.Settings SETTINGS = new ControllerManagers.Settings(
            ReplicationDefaults.KAFKA, 9_000, Map.of("metadata.version", new FeatureControlManager.SupportedRange(1, 1)));

    @Test
    void aStandbyReplayingTheLogHasTheActiveControllersImageAndARevertDropsUncommittedRecords() {
        ControllerManagers active = new ControllerManagers(MetadataImage.EMPTY, SETTINGS, CreateTopicPolicy.NONE,
                new SplittableRandom(5));
        List<MetadataRecord> log = new ArrayList<>();
        for (int id = 0; id < 3; id++) {
            var registered = active.cluster().registerBroker(ControllerFixture.registration(id, id, "r" + id),
                    log.size(), 0);
            active.replay(registered.records(), log.size(), 1);
            log.addAll(registered.records());
            var heartbeat = active.cluster().heartbeat(new ClusterControlManager.HeartbeatRequest(id,
                    registered.response().brokerEpoch(), log.size(), false, false), 0);
            active.replay(heartbeat.records(), log.size(), 1);
            log.addAll(heartbeat.records());
        }
        MetadataImage committed = active.image();
        var created = active.replication().createTopics(new CreateTopicsRequest(List.of(Topic.of("t", 6, 3)), false));
        active.replay(created.records(), log.size(), 1);
        log.addAll(created.records());

        MetadataDelta standby = new MetadataDelta(MetadataImage.EMPTY);
        for (int offset = 0; offset < log.size(); offset++) {
            standby.replay(log.get(offset), offset, 1);
        }
        assertEquals(active.image(), standby.apply());

        active.revertTo(committed);
        assertNull(active.image().topics().topic("t"));
        assertEquals(ErrorCode.NONE, active.replication().createTopics(new CreateTopicsRequest(
                List.of(Topic.of("t", 6, 3)), true)).response().topic("t").error().code());
    }
}
