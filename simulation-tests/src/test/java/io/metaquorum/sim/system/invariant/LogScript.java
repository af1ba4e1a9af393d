package io.metaquorum.sim.system.invariant;

import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.FenceBrokerRecord;
import io.metaquorum.protocol.LeaderChangeRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionChangeRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.UnfenceBrokerRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A committed log written by hand: batches of metadata records and leader-change control batches. */
final class LogScript {
    private final List<RecordBatch> batches = new ArrayList<>();
    private long nextOffset;

    List<RecordBatch> batches() {
        return batches;
    }

    static UuidKey id(long n) {
        return new UuidKey(0x7A11_0000_0000_0000L | n, 0x1357_9BDF_2468_ACE0L ^ n);
    }

    LogScript leaderChange(int epoch, int leader) {
        ControlRecord control = ControlRecord.newBuilder().setLeaderChange(LeaderChangeRecord.newBuilder()
                .setLeaderId(leader)).build();
        batches.add(RecordBatches.build(nextOffset, epoch, 0, true, List.of(control.toByteString())));
        nextOffset++;
        return this;
    }

    LogScript batch(MetadataRecord... records) {
        batches.add(RecordBatches.build(nextOffset, 1, 0, false, MetadataRecordCodec.encodeAll(Arrays.asList(records))));
        nextOffset += records.length;
        return this;
    }

    static MetadataRecord topic(String name, UuidKey id) {
        return MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name).setTopicId(id.toUuid()))
                .build();
    }

    static MetadataRecord partition(UuidKey id, int p, int leader, Integer... replicas) {
        return MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(id.toUuid())
                .setPartition(p).addAllReplicas(List.of(replicas)).addAllIsr(List.of(replicas)).setLeader(leader))
                .build();
    }

    /** A leader change with a new ISR, as a fencing writes it; {@code epoch} the leader and partition epoch after it. */
    static MetadataRecord moveLeader(UuidKey id, int p, int leader, int epoch, Integer... isr) {
        return MetadataRecord.newBuilder().setPartitionChange(PartitionChangeRecord.newBuilder().setTopicId(id.toUuid())
                .setPartition(p).setLeader(leader).setHasIsr(true).addAllIsr(List.of(isr)).setLeaderEpoch(epoch)
                .setPartitionEpoch(epoch)).build();
    }

    static MetadataRecord remove(UuidKey id) {
        return MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder().setTopicId(id.toUuid()))
                .build();
    }

    static MetadataRecord register(int broker, long epoch) {
        return MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder().setBrokerId(broker)
                .setIncarnationId(Uuid.newBuilder().setMostSignificantBits(broker).setLeastSignificantBits(1))
                .setBrokerEpoch(epoch).setFenced(true)).build();
    }

    static MetadataRecord unfence(int broker, long epoch) {
        return MetadataRecord.newBuilder().setUnfenceBroker(UnfenceBrokerRecord.newBuilder().setBrokerId(broker)
                .setBrokerEpoch(epoch)).build();
    }

    static MetadataRecord fence(int broker, long epoch) {
        return MetadataRecord.newBuilder().setFenceBroker(FenceBrokerRecord.newBuilder().setBrokerId(broker)
                .setBrokerEpoch(epoch)).build();
    }
}
