package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatRequest;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigOp;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource;
import io.metaquorum.metadata.controller.ConfigurationControlManager.OpType;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Config;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.ConfigResource;
import io.metaquorum.metadata.image.ImageTestSupport;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * Replay determinism: for random operation sequences decided by the managers,
 * the image rebuilt from the whole log, and from a snapshot (written and loaded as a node does)
 * at every offset plus the log's tail, equals the managers' own image — by {@code equals}.
 */
class ReplayDeterminismPropertyTest {
    private static final String[] NAMES = {"a", "b", "c.d", "c_d", "e", "bad name", "__cluster_metadata"};
    private static final String[] RACKS = {"", "r1", "r2"};

    @Property(tries = 200)
    void everyPathToAnOffsetGivesAnEqualImage(@ForAll @Size(min = 1, max = 60)
                                              List<@IntRange(min = 0, max = 1_000_000) Integer> steps,
                                              @ForAll @IntRange(min = 0, max = 1000) int seed) {
        ControllerFixture fixture = new ControllerFixture(CreateTopicPolicy.NONE, seed);
        List<MetadataImage> images = new ArrayList<>();
        fixture.addBrokers(3);
        for (int step : steps) {
            step(fixture, step);
        }
        List<MetadataRecord> log = fixture.log;
        Statistics.label("topics at the end").collect(Math.min(fixture.image().topics().topicCount(), 3));
        Statistics.label("fenced brokers at the end").collect(fixture.image().cluster().sortedById().stream()
                .filter(BrokerRegistration::fenced).count());
        MetadataDelta full = new MetadataDelta(MetadataImage.EMPTY);
        images.add(full.apply());
        for (int offset = 0; offset < log.size(); offset++) {
            full.replay(log.get(offset), offset, fixture.epoch);
            images.add(full.apply());
        }
        assertEquals(fixture.image(), images.get(images.size() - 1), "full replay equals the controller's image");
        for (int cut = 0; cut < images.size(); cut++) {
            MetadataImage snapshot = ImageTestSupport.rebuiltFromSnapshot(images.get(cut));
            assertEquals(images.get(cut), snapshot, "snapshot at " + cut + " replays to the same image");
            MetadataDelta tail = new MetadataDelta(snapshot);
            for (int offset = cut; offset < log.size(); offset++) {
                tail.replay(log.get(offset), offset, fixture.epoch);
            }
            assertEquals(fixture.image(), tail.apply(), "snapshot at " + cut + " plus the tail");
        }
    }

    static void step(ControllerFixture f, int step) {
        int a = (step / 10) % 7;
        int b = (step / 70) % 5;
        switch (step % 10) {
            case 0 -> f.apply(f.cluster.registerBroker(ControllerFixture.registration(a % 6, 10 + b % 2, RACKS[b % 3]),
                    f.nextOffset(), f.nowMs));
            case 1, 2 -> heartbeat(f, a % 6, false);
            case 3 -> heartbeat(f, a % 6, true);
            case 4 -> {
                f.nowMs += 500L * (a + b);
                f.apply(f.cluster.fenceOneExpiredBroker(f.nowMs));
            }
            case 5, 6 -> f.apply(f.replication.createTopics(new CreateTopicsRequest(List.of(
                    Topic.of(NAMES[a], 1 + b, 1 + b % 3).withConfigs(b == 4 ? List.of(new Config("retention.ms", "5"))
                            : List.of()), Topic.of(NAMES[(a + b) % NAMES.length], 2, 1)), false)));
            case 7 -> f.apply(f.replication.deleteTopics(List.of(NAMES[a]), List.of()));
            case 8 -> f.apply(f.replication.createPartitions(List.of(new CreatePartitionsTopic(NAMES[a], 2 + b,
                    List.of())), false));
            default -> f.apply(f.configs.incrementalAlterConfigs(List.of(new AlterConfigsResource(
                    ConfigResource.topic(NAMES[a]), List.of(new AlterConfigOp("cleanup.policy",
                            b % 2 == 0 ? OpType.SET : OpType.DELETE, "compact")))), false));
        }
    }

    private static void heartbeat(ControllerFixture f, int id, boolean wantFence) {
        BrokerRegistration broker = f.image().cluster().broker(id);
        long epoch = broker == null ? 0 : broker.epoch();
        f.apply(f.cluster.heartbeat(new HeartbeatRequest(id, epoch, f.nextOffset(), wantFence, false), f.nowMs));
    }
}
