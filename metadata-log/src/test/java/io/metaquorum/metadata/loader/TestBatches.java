package io.metaquorum.metadata.loader;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.LeaderChangeRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.List;

/** Committed batches as the raft core would hand them to a listener. */
final class TestBatches {
    private TestBatches() {
    }

    static RecordBatch leaderChange(long baseOffset, int epoch, int leaderId) {
        ControlRecord record = ControlRecord.newBuilder()
                .setLeaderChange(LeaderChangeRecord.newBuilder().setLeaderId(leaderId).addVoters(leaderId)).build();
        return RecordBatches.build(baseOffset, epoch, 1000 + baseOffset, true, List.of(record.toByteString()));
    }

    static RecordBatch data(long baseOffset, int epoch, MetadataRecord... records) {
        List<ByteString> encoded = MetadataRecordCodec.encodeAll(List.of(records));
        return RecordBatches.build(baseOffset, epoch, 1000 + baseOffset, false, encoded);
    }
}
