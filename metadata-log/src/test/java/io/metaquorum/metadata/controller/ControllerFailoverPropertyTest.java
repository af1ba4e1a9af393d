package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerResponse;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * The active controller killed between append and commit: random creates and
 * deletes, with raft accepting, committing a prefix of the appends, or losing what is not
 * committed as a new leader takes over (the old controller resigns, the next epoch's leader
 * starts from the committed log). Afterwards every request was answered exactly once, no
 * topic exists without all its partitions, and every create answered as committed is there
 * with the id it was answered with, unless a delete of it was asked for since.
 */
class ControllerFailoverPropertyTest {
    private static final String[] NAMES = {"a", "b", "c", "d", "e"};

    /** What the test knows of one create it asked for. */
    private static final class Create {
        final String name;
        final int partitions;
        final List<CreateTopicsResponse> answers = new ArrayList<>();
        boolean deletedSince;

        Create(String name, int partitions) {
            this.name = name;
            this.partitions = partitions;
        }
    }

    @Property(tries = 300)
    void aFailoverBetweenAppendAndCommitLeavesNoHalfTopicAndLosesNoAcknowledgedOne(
            @ForAll @Size(min = 1, max = 80) List<@IntRange(min = 0, max = 9_999) Integer> steps) {
        ControllerHarness h = new ControllerHarness();
        int epoch = activeWithBrokers(h);
        List<Create> creates = new ArrayList<>();
        List<List<?>> deleteAnswers = new ArrayList<>();
        int failovers = 0;
        for (int step : steps) {
            int a = (step / 10) % NAMES.length;
            int b = (step / 100) % 4;
            switch (step % 10) {
                case 0, 1, 2, 3 -> {
                    Create create = new Create(NAMES[a], 1 + b);
                    creates.add(create);
                    h.controller.createTopics(new CreateTopicsRequest(List.of(Topic.of(create.name, create.partitions,
                            1 + b % 3)), false), 1_000, h.nowMs, create.answers::add);
                }
                case 4 -> {
                    creates.stream().filter(c -> c.name.equals(NAMES[a])).forEach(c -> c.deletedSince = true);
                    List<Object> answers = new ArrayList<>();
                    deleteAnswers.add(answers);
                    h.controller.deleteTopics(List.of(NAMES[a]), List.of(), 1_000, h.nowMs, answers::add);
                }
                case 5 -> h.acceptAll();
                case 6, 7 -> {
                    h.acceptAll();
                    int uncommitted = h.appended.size() - h.committedAppends();
                    h.commitFirst(h.committedAppends() + (uncommitted == 0 ? 0 : b % (uncommitted + 1)));
                }
                case 8 -> {
                    h.loseUncommitted();
                    h.controller.handleResign(epoch);
                    epoch++;
                    h.becomeLeader(epoch);
                    failovers++;
                }
                default -> h.advance(300);
            }
        }
        h.commitAll();
        h.advance(2_000);
        Statistics.label("failovers").collect(Math.min(failovers, 3));
        Statistics.label("topics at the end").collect(h.committed.topics().topicCount());
        for (Create create : creates) {
            assertEquals(1, create.answers.size(), "create of " + create.name + " answered exactly once");
        }
        deleteAnswers.forEach(answers -> assertEquals(1, answers.size(), "delete answered exactly once"));
        assertNoHalfTopic(h, creates);
        for (Create create : creates) {
            CreateTopicsResponse.TopicResult result = create.answers.get(0).topic(create.name);
            if (result.error().code() == ErrorCode.NONE && !create.deletedSince) {
                TopicImage topic = h.committed.topics().topic(create.name);
                assertNotNull(topic, "acknowledged create of " + create.name + " lost");
                assertEquals(result.topicId(), topic.id().toUuid(), "with the id it was answered with");
            }
        }
    }

    private static void assertNoHalfTopic(ControllerHarness h, List<Create> creates) {
        Map<String, TreeSet<Integer>> asked = new TreeMap<>();
        creates.forEach(c -> asked.computeIfAbsent(c.name, n -> new TreeSet<>()).add(c.partitions));
        for (TopicImage topic : h.committed.topics().sortedByName()) {
            int count = topic.partitionCount();
            for (int index = 0; index < count; index++) {
                assertNotNull(topic.partition(index), topic.name() + " lacks partition " + index);
            }
            assertTrue(asked.get(topic.name()).contains(count), topic.name() + " has " + count
                    + " partitions; creates asked for " + asked.get(topic.name()));
        }
    }

    /** Epoch 1 active with three unfenced brokers, everything committed; returns the epoch. */
    private static int activeWithBrokers(ControllerHarness h) {
        h.becomeLeader(1);
        h.commitAll();
        for (int id = 0; id < 3; id++) {
            List<RegisterBrokerResponse> registered = new ArrayList<>();
            h.controller.registerBroker(ControllerFixture.registration(id, id, ""), h.nowMs, registered::add);
            h.commitAll();
            h.controller.heartbeat(new HeartbeatRequest(id, registered.get(0).brokerEpoch(),
                    h.committed.lastCommittedOffset(), false, false), h.nowMs, beat -> { });
            h.commitAll();
        }
        return 1;
    }
}
