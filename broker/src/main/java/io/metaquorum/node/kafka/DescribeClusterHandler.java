package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.DescribeClusterResponse;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.EndpointType;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData.DescribeClusterBroker;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Kafka's DescribeCluster on a broker endpoint: the cluster id, the brokers reachable on the
 * caller's listener (unfenced ones, or every one when version 2 asks for fenced brokers too),
 * and a controller among them ({@link ListenerBrokers#controllerId}). Like Kafka's, and like
 * Metadata, it needs no right ({@link AdminRequests#describeMetadata}): Kafka's AdminClient asks
 * it on the way to other calls (describing topics), so a caller with topic rights alone must get
 * an answer. Our gRPC DescribeCluster, which no Kafka tool calls, keeps DESCRIBE on the cluster.
 * A request for the controllers' endpoint (version 1 on) is
 * MISMATCHED_ENDPOINT_TYPE, an endpoint type Kafka does not know UNSUPPORTED_ENDPOINT_TYPE.
 * Its {@code cluster_authorized_operations} are Kafka's: the "not asked" value unless asked, then
 * none without DESCRIBE on the cluster, else every cluster operation the caller holds
 * ({@link AdminRequests#authorizedClusterOperations}).
 */
final class DescribeClusterHandler implements KafkaApiHandler {
    private final AdminRequests admin;
    private final int nodeId;

    DescribeClusterHandler(AdminRequests admin, int nodeId) {
        this.admin = admin;
        this.nodeId = nodeId;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        DescribeClusterRequestData data = ((org.apache.kafka.common.requests.DescribeClusterRequest) request).data();
        short version = request.version();
        DescribeClusterResponseData out = new DescribeClusterResponseData();
        EndpointType asked = EndpointType.fromId(data.endpointType());
        if (asked != EndpointType.BROKER) {
            Errors error = asked == EndpointType.UNKNOWN ? Errors.UNSUPPORTED_ENDPOINT_TYPE
                    : Errors.MISMATCHED_ENDPOINT_TYPE;
            reply.accept(response(out.setErrorCode(error.code()).setErrorMessage("This listener is a broker "
                    + "endpoint; endpoint type " + data.endpointType() + " (" + asked + ") was asked.")));
            return;
        }
        DescribeClusterResponse cluster = admin.describeMetadata(Optional.empty(), call.origin()).cluster();
        boolean withFenced = version >= 2 && data.includeFencedBrokers();
        List<ListenerBroker> brokers = ListenerBrokers.on(cluster, call.listenerName(), withFenced);
        out.setClusterId(cluster.getClusterId()).setControllerId(ListenerBrokers.controllerId(brokers, nodeId));
        if (data.includeClusterAuthorizedOperations()) {
            out.setClusterAuthorizedOperations(AuthorizedOperations.bitField(
                    admin.authorizedClusterOperations(call.origin())));
        }
        for (ListenerBroker broker : brokers) {
            out.brokers().add(new DescribeClusterBroker().setBrokerId(broker.id()).setHost(broker.host())
                    .setPort(broker.port()).setRack(broker.rack()).setIsFenced(broker.fenced()));
        }
        reply.accept(response(out));
    }

    private static AbstractResponse response(DescribeClusterResponseData data) {
        return new org.apache.kafka.common.requests.DescribeClusterResponse(data);
    }
}
