package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.TopicIds;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mq-metadata dump} on logs written through the production store. */
class MetadataDumpTest {
    private static final Pattern RECORD_OFFSET = Pattern.compile("^(?:\\| )?(?:\\{\"offset\": |offset: )(\\d+)");

    @TempDir
    Path dir;

    static List<Long> offsets(String out) {
        return out.lines().map(RECORD_OFFSET::matcher).filter(Matcher::find)
                .map(m -> Long.parseLong(m.group(1))).toList();
    }

    private CliRun dump(String... extra) {
        String[] args = new String[extra.length + 3];
        args[0] = "dump";
        args[1] = "--data-dir";
        args[2] = dir.toString();
        System.arraycopy(extra, 0, args, 3, extra.length);
        return CliRun.of(MetadataTool::run, args);
    }

    @Test
    void everyRecordOneALineUnderItsBatch() {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        CliRun run = dump();
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals(MetadataLogFixture.END_OFFSET + MetadataLogFixture.batches().size(), lines.size());
        assertTrue(lines.get(0).startsWith("baseOffset: 0 lastOffset: 0 count: 1 epoch: 1 control: true appendTime: "
                + "2025-12-01T10:00:00Z bytes: "), lines.get(0));
        assertEquals("| offset: 0 epoch: 1 type: LeaderChangeRecord (control) record: {leader_id: 1 voters: [1, 2, 3] "
                + "granting_voters: [1]}", lines.get(1));
        String demoId = TopicIds.toBase64(MetadataLogFixture.DEMO);
        assertTrue(lines.contains("| offset: 8 epoch: 1 type: TopicRecord record: {name: \"demo\" topic_id: \""
                + demoId + "\"}"), run.out());
        assertTrue(lines.contains("| offset: 21 epoch: 2 type: ConfigRecord record: {resource_type: "
                + "CONFIG_RESOURCE_TOPIC resource_name: \"demo\" name: \"cleanup.policy\"}"), run.out());
        assertEquals(java.util.stream.LongStream.range(0, MetadataLogFixture.END_OFFSET).boxed().toList(),
                offsets(run.out()));
    }

    @Test
    void jsonIsOneObjectPerRecordAsProductMdWritesIt() {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        CliRun run = dump("--json", "--from-offset", "8", "--max-records", "2");
        assertEquals(0, run.exitCode(), run.err());
        String demoId = TopicIds.toBase64(MetadataLogFixture.DEMO);
        assertEquals(List.of("{\"offset\": 8, \"epoch\": 1, \"type\": \"TopicRecord\", \"record\": {\"name\": \"demo\", "
                        + "\"topicId\": \"" + demoId + "\"}}",
                "{\"offset\": 9, \"epoch\": 1, \"type\": \"PartitionRecord\", \"record\": {\"topicId\": \"" + demoId
                        + "\", \"partition\": 0, \"replicas\": [4, 5, 6], \"isr\": [4, 5, 6], \"leader\": 4, "
                        + "\"leaderEpoch\": 0, \"partitionEpoch\": 0}}"), run.out().lines().toList());
        assertEquals(22, demoId.length());
    }

    @Test
    void theTopicFilterFollowsTheTopicById() {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        assertEquals(List.of(8L, 9L, 10L, 11L, 12L, 16L, 20L, 21L), offsets(dump("--topic", "demo").out()));
        assertEquals(List.of(13L, 14L, 17L, 18L, 19L), offsets(dump("--topic", "gone").out()));
        assertEquals(List.of(13L, 14L, 17L), offsets(dump("--topic",
                TopicIds.toBase64(MetadataLogFixture.GONE_FIRST), "--json").out()));
        assertEquals(List.of(8L, 9L, 10L, 11L, 12L, 16L, 20L, 21L), offsets(dump("--topic",
                TopicIds.toBase64(MetadataLogFixture.DEMO)).out()));
        assertEquals(List.of(16L, 20L, 21L), offsets(dump("--topic", "demo", "--from-offset", "15").out()));
    }

    @Test
    void theTypeFilter() {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        assertEquals(List.of(16L), offsets(dump("--type", "PartitionChange").out()));
        assertEquals(List.of(0L, 15L), offsets(dump("--type", "LeaderChangeRecord").out()));
        assertEquals(List.of(12L, 20L, 21L), offsets(dump("--type", "ConfigRecord", "--topic", "demo").out()));
        CliRun unknown = dump("--type", "Nope");
        assertEquals(1, unknown.exitCode());
        assertEquals(1, unknown.errLines(), unknown.err());
        assertTrue(unknown.err().startsWith("mq-metadata dump: unknown record type 'Nope'; one of TopicRecord"),
                unknown.err());
    }

    @Test
    void aBadOffsetIsOneLine() {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        CliRun run = dump("--from-offset", "99");
        assertEquals(1, run.exitCode());
        assertEquals("mq-metadata dump: --from-offset 99 is outside the log, which holds offsets [0, 24)",
                run.err().strip());
    }

    @Test
    void readsTheLogOfARunningNode() {
        List<RecordBatch> batches = MetadataLogFixture.batches();
        try (MetadataLogStore node = MetadataLogStore.open(dir)) {
            MetadataLogFixture.append(node, batches.subList(0, 6));
            assertEquals(List.of(8L, 9L, 10L, 11L, 12L), offsets(dump("--topic", "demo").out()));
            MetadataLogFixture.append(node, batches.subList(6, batches.size()));
            CliRun run = dump("--topic", "demo");
            assertEquals(0, run.exitCode(), run.err());
            assertEquals(List.of(8L, 9L, 10L, 11L, 12L, 16L, 20L, 21L), offsets(run.out()));
            assertEquals(0, CliRun.of(MetadataTool::run, "verify", "--data-dir", dir.toString()).exitCode());
        }
    }

    @Test
    void aCorruptBatchStopsTheDumpNamingItsOffset() throws Exception {
        MetadataLogFixture.write(dir, MetadataLogFixture.batches());
        PlantedCorruption.flipMiddleBit(dir, 16);
        CliRun run = dump();
        assertEquals(1, run.exitCode());
        assertEquals(java.util.stream.LongStream.range(0, 16).boxed().toList(), offsets(run.out()));
        assertEquals(1, run.errLines(), run.err());
        assertTrue(run.err().startsWith("mq-metadata dump: corrupt metadata log batch at offset 16: "), run.err());
    }

    @Test
    void aSnapshotDumpsTheSameWay() {
        MetadataLogFixture.writeWithSnapshot(dir);
        CliRun log = dump();
        assertEquals(0, log.exitCode(), log.err());
        assertEquals(java.util.stream.LongStream.range(16, 24).boxed().toList(), offsets(log.out()));
        assertTrue(log.err().contains("the log starts at offset 16; earlier records are in snapshot 16-2"), log.err());
        CliRun snapshot = dump("--snapshot", "16-2");
        assertEquals(0, snapshot.exitCode(), snapshot.err());
        List<String> lines = snapshot.out().lines().toList();
        assertTrue(lines.get(0).startsWith("snapshot: 00000000000000000016-0000000002.checkpoint endOffset: 16 epoch: 2 "
                + "records: "), lines.get(0));
        assertTrue(snapshot.out().contains("type: TopicRecord record: {name: \"demo\" topic_id: \""
                + TopicIds.toBase64(MetadataLogFixture.DEMO) + "\"}"), snapshot.out());
        CliRun demo = dump("--snapshot", "00000000000000000016-0000000002.checkpoint", "--topic", "demo", "--json");
        assertEquals(0, demo.exitCode(), demo.err());
        assertEquals(5, demo.out().lines().count(), demo.out());
        CliRun unknown = dump("--snapshot", "12-1");
        assertEquals(1, unknown.exitCode());
        assertEquals("mq-metadata dump: no snapshot 12-1 in " + dir.resolve("snapshots") + "; present: 16-2",
                unknown.err().strip());
    }
}
