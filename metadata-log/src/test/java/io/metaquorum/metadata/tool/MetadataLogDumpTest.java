package io.metaquorum.metadata.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.LeaderChangeRecord;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetadataLogDumpTest {
    private static InMemoryRaftLog log() {
        InMemoryRaftLog log = new InMemoryRaftLog();
        ControlRecord leaderChange = ControlRecord.newBuilder()
                .setLeaderChange(LeaderChangeRecord.newBuilder().setLeaderId(1).addVoters(1).addGrantingVoters(1)).build();
        log.append(RecordBatches.build(0, 3, 100, true, List.of(leaderChange.toByteString())));
        log.append(RecordBatches.build(1, 3, 101, false, MetadataRecordCodec.encodeAll(List.of(
                MetadataRecordCodec.featureLevel("metadata.version", 1), MetadataRecordCodec.noOp()))));
        log.flush();
        return log;
    }

    @Test
    void textLines() {
        List<String> lines = new ArrayList<>();
        assertEquals(3, MetadataLogDump.dump(log(), 0, Long.MAX_VALUE, false, lines::add));
        assertEquals(List.of(
                "offset: 0 epoch: 3 type: LeaderChangeRecord record: {leader_id: 1 voters: 1 granting_voters: 1}",
                "offset: 1 epoch: 3 type: FeatureLevelRecord record: {name: \"metadata.version\" feature_level: 1}",
                "offset: 2 epoch: 3 type: NoOpRecord record: {}"), lines);
    }

    @Test
    void jsonLinesFromAnOffsetWithALimit() {
        List<String> lines = new ArrayList<>();
        assertEquals(1, MetadataLogDump.dump(log(), 1, 1, true, lines::add));
        assertEquals(List.of("{\"offset\": 1, \"epoch\": 3, \"type\": \"FeatureLevelRecord\", "
                + "\"record\": {\"name\":\"metadata.version\",\"featureLevel\":1}}"), lines);
    }

    @Test
    void anOffsetPastTheEndPrintsNothing() {
        List<String> lines = new ArrayList<>();
        assertEquals(0, MetadataLogDump.dump(log(), 99, 10, true, lines::add));
        assertEquals(List.of(), lines);
    }
}
