package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Automatic placement: distinct brokers, distinct racks where possible, leaders and replicas spread evenly. */
class PlacementTest {
    private static TopicImage create(ControllerFixture fixture, String name, int partitions, int rf) {
        fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(List.of(Topic.of(name, partitions, rf)),
                false)));
        return fixture.image().topics().topic(name);
    }

    private static Map<Integer, Long> count(TopicImage topic, boolean leadersOnly) {
        Map<Integer, Long> counts = new TreeMap<>();
        for (int p = 0; p < topic.partitionCount(); p++) {
            int[] replicas = topic.partition(p).replicas();
            for (int i = 0; i < (leadersOnly ? 1 : replicas.length); i++) {
                counts.merge(replicas[i], 1L, Long::sum);
            }
        }
        return counts;
    }

    @Test
    void threePartitionsOfRf3OnThreeBrokersHaveThreeDifferentLeaders() {
        ControllerFixture fixture = new ControllerFixture();
        fixture.addBrokers(3);
        TopicImage topic = create(fixture, "t", 3, 3);
        assertEquals(Map.of(0, 1L, 1, 1L, 2, 1L), count(topic, true));
    }

    @Test
    void replicasOfAPartitionSpanRacksAndLeadersAlternateRacks() {
        ControllerFixture fixture = new ControllerFixture();
        String[] racks = {"a", "a", "b", "b", "c", "c"};
        for (int id = 0; id < racks.length; id++) {
            fixture.addBroker(id, racks[id]);
        }
        TopicImage topic = create(fixture, "r", 12, 3);
        for (int p = 0; p < 12; p++) {
            PartitionRegistration partition = topic.partition(p);
            long distinctRacks = Arrays.stream(partition.replicas()).mapToObj(id -> racks[id]).distinct().count();
            assertEquals(3, distinctRacks, "partition " + p + " " + partition);
        }
        assertEquals(Map.of(0, 2L, 1, 2L, 2, 2L, 3, 2L, 4, 2L, 5, 2L), count(topic, true));
        assertEquals(Map.of(0, 6L, 1, 6L, 2, 6L, 3, 6L, 4, 6L, 5, 6L), count(topic, false));
    }

    @Property(tries = 100)
    void replicasAreDistinctAndLeadersSpreadEvenly(@ForAll @IntRange(min = 1, max = 9) int brokers,
                                                   @ForAll @IntRange(min = 1, max = 40) int partitions,
                                                   @ForAll @IntRange(min = 1, max = 9) int rf,
                                                   @ForAll @IntRange(min = 0, max = 3) int rackCount) {
        if (rf > brokers) {
            return;
        }
        ControllerFixture fixture = new ControllerFixture(CreateTopicPolicy.NONE, brokers * 1000L + partitions);
        for (int id = 0; id < brokers; id++) {
            fixture.addBroker(id, rackCount == 0 ? "" : "rack-" + (id % rackCount));
        }
        TopicImage topic = create(fixture, "p", partitions, rf);
        for (int p = 0; p < partitions; p++) {
            int[] replicas = topic.partition(p).replicas();
            assertEquals(rf, Arrays.stream(replicas).distinct().count(), Arrays.toString(replicas));
        }
        List<Long> leaders = count(topic, true).values().stream().collect(Collectors.toList());
        long most = leaders.stream().mapToLong(Long::longValue).max().orElse(0);
        long least = leaders.size() < Math.min(brokers, partitions) ? 0
                : leaders.stream().mapToLong(Long::longValue).min().orElse(0);
        assertTrue(most - least <= 1, "leaders per broker " + count(topic, true));
    }
}
