package io.metaquorum.raft.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.KRaftVersionRecord;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.storage.InMemorySnapshotWriter;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** KIP-853: raft's voter set rides in a control batch after the header, apart from the data. */
class SnapshotRaftRecordsTest {
    @Test
    void theRaftRecordsComeBackApartFromTheData() {
        ControlRecord version = ControlRecord.newBuilder().setKraftVersion(KRaftVersionRecord.newBuilder()
                .setKraftVersion(1)).build();
        ControlRecord voters = ControlRecord.newBuilder().setVoters(VoterSet.ofIds(List.of(1, 2)).toRecord()).build();
        InMemorySnapshotWriter writer = new InMemorySnapshotWriter(new OffsetAndEpoch(5, 2));
        SnapshotEncoder encoder = new SnapshotEncoder(writer, 0, 2, 1 << 20,
                List.of(version.toByteString(), voters.toByteString()));
        List<ByteString> data = List.of(ByteString.copyFromUtf8("a"), ByteString.copyFromUtf8("b"),
                ByteString.copyFromUtf8("c"));
        data.forEach(encoder::add);
        encoder.finish();
        byte[] content = writer.frozenContent();
        assertEquals(data, SnapshotCodec.decode(content).records());
        SnapshotDecoder decoder = new SnapshotDecoder(SnapshotCodec.contentReader(content), "test");
        assertEquals(List.of(ByteString.copyFromUtf8("a"), ByteString.copyFromUtf8("b")), decoder.nextBatch());
        assertEquals(List.of(version, voters), decoder.raftRecords());
        assertEquals(List.of(ByteString.copyFromUtf8("c")), decoder.nextBatch());
        assertNull(decoder.nextBatch());
        assertEquals(3, decoder.recordCount());
    }

    @Test
    void aSnapshotWithoutThemHasNone() {
        byte[] content = SnapshotCodec.encode(new OffsetAndEpoch(1, 1), 0, List.of(ByteString.copyFromUtf8("a")), 10);
        SnapshotDecoder decoder = new SnapshotDecoder(SnapshotCodec.contentReader(content), "test");
        decoder.nextBatch();
        assertEquals(List.of(), decoder.raftRecords());
    }
}
