package io.metaquorum.cli;

import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.DescribedConfig;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import java.util.List;

/** Scripted node answers for the tools' tests. */
final class AdminResponses {
    private AdminResponses() {
    }

    static AdminResponseHeader ok() {
        return AdminResponseHeader.newBuilder().setErrorCode(ErrorCode.NONE).setControllerId(1).setMetadataOffset(10)
                .build();
    }

    static AdminResponseHeader refused(ErrorCode code, String message) {
        return AdminResponseHeader.newBuilder().setErrorCode(code).setErrorMessage(message).setControllerId(-1).build();
    }

    static DescribedConfig config(String name, String value, ConfigSource source) {
        return DescribedConfig.newBuilder().setName(name).setValue(value).setConfigSource(source).build();
    }

    static DescribedPartition partition(int index, int leader, List<Integer> replicas, List<Integer> isr) {
        return DescribedPartition.newBuilder().setPartitionIndex(index).setLeaderId(leader).setLeaderEpoch(2)
                .addAllReplicas(replicas).addAllIsr(isr).build();
    }

    static DescribedTopic demo() {
        return DescribedTopic.newBuilder().setName("demo")
                .setTopicId(io.metaquorum.raft.TopicIds.fromBase64("x9VhI4eNQmqgq5o4fXoVtA"))
                .addPartitions(partition(1, -1, List.of(5, 6, 4), List.of()))
                .addPartitions(partition(0, 4, List.of(4, 5, 6), List.of(4, 5, 6)))
                .addConfigs(config("segment.bytes", "1048576", ConfigSource.DYNAMIC_TOPIC_CONFIG))
                .addConfigs(config("cleanup.policy", "compact", ConfigSource.DYNAMIC_TOPIC_CONFIG))
                .addConfigs(config("retention.ms", "604800000", ConfigSource.DEFAULT_CONFIG))
                .build();
    }
}
