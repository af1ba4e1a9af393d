package io.metaquorum.client.transport;

import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.DescribeAclsRequest;
import io.metaquorum.protocol.DescribeAclsResponse;
import io.metaquorum.protocol.DescribeClusterRequest;
import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResponse;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.net.HostPort;

/**
 * One attempt of each AdminService RPC at one node, waiting at most {@code timeoutMs}. An
 * attempt that gets no answer throws {@link TransportFailure}; an answer, whatever its error
 * codes, is returned as is. The retry rules live in the admin client, not here.
 */
public interface AdminTransport extends AutoCloseable {
    CreateTopicsResponse createTopics(HostPort node, CreateTopicsRequest request, long timeoutMs);

    DeleteTopicsResponse deleteTopics(HostPort node, DeleteTopicsRequest request, long timeoutMs);

    CreatePartitionsResponse createPartitions(HostPort node, CreatePartitionsRequest request, long timeoutMs);

    ListTopicsResponse listTopics(HostPort node, ListTopicsRequest request, long timeoutMs);

    DescribeTopicsResponse describeTopics(HostPort node, DescribeTopicsRequest request, long timeoutMs);

    DescribeConfigsResponse describeConfigs(HostPort node, DescribeConfigsRequest request, long timeoutMs);

    IncrementalAlterConfigsResponse incrementalAlterConfigs(HostPort node, IncrementalAlterConfigsRequest request,
            long timeoutMs);

    DescribeClusterResponse describeCluster(HostPort node, DescribeClusterRequest request, long timeoutMs);

    CreateAclsResponse createAcls(HostPort node, CreateAclsRequest request, long timeoutMs);

    DescribeAclsResponse describeAcls(HostPort node, DescribeAclsRequest request, long timeoutMs);

    DeleteAclsResponse deleteAcls(HostPort node, DeleteAclsRequest request, long timeoutMs);

    @Override
    void close();
}
