package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.DescribeClusterRequest;
import io.metaquorum.protocol.ErrorCode;
import java.util.function.Consumer;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ListPartitionReassignmentsResponse;

/**
 * Kafka's ListPartitionReassignments: there is no reassignment here (replicas move only by
 * CreateTopics and CreatePartitions), so the answer is always an empty list, for every topic or
 * the ones named. As in Kafka it needs DESCRIBE on the cluster; that right is checked where our
 * DescribeCluster checks it, which this asks first, so a refusal (or a caller the node cannot
 * admit yet) is the response's error.
 */
final class ListPartitionReassignmentsHandler implements KafkaApiHandler {
    private final AdminRequests admin;

    ListPartitionReassignmentsHandler(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        AdminResponseHeader header = admin.describeCluster(DescribeClusterRequest.getDefaultInstance(), call.origin())
                .getHeader();
        ErrorCode error = header.getErrorCode();
        reply.accept(new ListPartitionReassignmentsResponse(new ListPartitionReassignmentsResponseData()
                .setErrorCode(WireErrors.code(error)).setErrorMessage(WireValues.message(error,
                        header.getErrorMessage()))));
    }
}
