package io.metaquorum.metadata.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.FeaturesImage;
import io.metaquorum.metadata.image.AclsImage;
import io.metaquorum.metadata.image.ClusterImage;
import io.metaquorum.metadata.image.ConfigurationsImage;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.MetadataProvenance;
import io.metaquorum.metadata.image.TopicsImage;
import io.metaquorum.metadata.loader.LeaderRecordWriter.LeaderAppend;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.core.RaftStatus;
import io.metaquorum.raft.core.RoleName;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeaderRecordWriterTest {
    private static final long IDLE_MS = 500;

    private static RaftStatus status(RoleName role, int epoch) {
        return new RaftStatus(1, role, epoch, role == RoleName.LEADER ? 1 : 2, -1, 10, 0, 10, 10, 10);
    }

    private static MetadataImage committedUpTo(int epoch, boolean bootstrapped) {
        FeaturesImage features = bootstrapped ? new FeaturesImage(Map.of("metadata.version", 1)) : FeaturesImage.EMPTY;
        return new MetadataImage(new MetadataProvenance(9, epoch), features, ClusterImage.EMPTY, TopicsImage.EMPTY,
                ConfigurationsImage.EMPTY, AclsImage.EMPTY);
    }

    private static List<MetadataRecord.RecordCase> cases(List<LeaderAppend> appends) {
        return appends.stream().flatMap(a -> a.records().stream()).map(MetadataRecord::getRecordCase).toList();
    }

    @Test
    void aFollowerWritesNothing() {
        LeaderRecordWriter writer = new LeaderRecordWriter(IDLE_MS);
        assertTrue(writer.poll(status(RoleName.FOLLOWER, 3), MetadataImage.EMPTY, 0).isEmpty());
        assertTrue(writer.poll(status(RoleName.FOLLOWER, 3), MetadataImage.EMPTY, 10_000).isEmpty());
    }

    @Test
    void bootstrapsOnceTheLeaderAppliedItsOwnEpochAndOnlyOnce() {
        LeaderRecordWriter writer = new LeaderRecordWriter(IDLE_MS);
        assertTrue(writer.poll(status(RoleName.LEADER, 3), committedUpTo(2, false), 0).isEmpty(),
                "records of older epochs may still be uncommitted: wait");
        List<LeaderAppend> appends = writer.poll(status(RoleName.LEADER, 3), committedUpTo(3, false), 10);
        assertEquals(List.of(MetadataRecord.RecordCase.FEATURE_LEVEL), cases(appends));
        assertEquals(3, appends.get(0).epoch());
        assertEquals(MetadataRecordCodec.featureLevel("metadata.version", 1), appends.get(0).records().get(0));
        assertTrue(writer.poll(status(RoleName.LEADER, 3), committedUpTo(3, false), 20).isEmpty(),
                "appended, not yet committed: not again in this epoch");
    }

    @Test
    void aRefusedBootstrapIsRetried() {
        LeaderRecordWriter writer = new LeaderRecordWriter(IDLE_MS);
        List<LeaderAppend> appends = writer.poll(status(RoleName.LEADER, 3), committedUpTo(3, false), 0);
        writer.onAppendRefused(appends.get(0));
        assertEquals(List.of(MetadataRecord.RecordCase.FEATURE_LEVEL),
                cases(writer.poll(status(RoleName.LEADER, 3), committedUpTo(3, false), 1)));
    }

    @Test
    void aBootstrappedClusterIsNotBootstrappedAgain() {
        LeaderRecordWriter writer = new LeaderRecordWriter(IDLE_MS);
        assertTrue(writer.poll(status(RoleName.LEADER, 4), committedUpTo(4, true), 0).isEmpty());
    }

    @Test
    void writesANoOpEveryIdleInterval() {
        LeaderRecordWriter writer = new LeaderRecordWriter(IDLE_MS);
        MetadataImage image = committedUpTo(5, true);
        assertTrue(writer.poll(status(RoleName.LEADER, 5), image, 1_000).isEmpty());
        assertTrue(writer.poll(status(RoleName.LEADER, 5), image, 1_499).isEmpty());
        assertEquals(List.of(MetadataRecord.RecordCase.NO_OP), cases(writer.poll(status(RoleName.LEADER, 5), image, 1_500)));
        assertTrue(writer.poll(status(RoleName.LEADER, 5), image, 1_999).isEmpty());
        assertEquals(List.of(MetadataRecord.RecordCase.NO_OP), cases(writer.poll(status(RoleName.LEADER, 5), image, 2_000)));
        assertEquals(2_500, writer.nextDeadlineMs());
    }
}
