package io.metaquorum.client.transport;

import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
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
import io.metaquorum.protocol.DescribeUserScramCredentialsRequest;
import io.metaquorum.protocol.DescribeUserScramCredentialsResponse;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.net.HostPort;

/**
 * One attempt of each AdminService RPC at one node, as {@link Attempt} says: waiting at most
 * its timeout, and carrying the client's ACL offset. An
 * attempt that gets no answer throws {@link TransportFailure}; an answer, whatever its error
 * codes, is returned as is. The retry rules live in the admin client, not here.
 */
public interface AdminTransport extends AutoCloseable {
    CreateTopicsResponse createTopics(HostPort node, CreateTopicsRequest request, Attempt attempt);

    DeleteTopicsResponse deleteTopics(HostPort node, DeleteTopicsRequest request, Attempt attempt);

    CreatePartitionsResponse createPartitions(HostPort node, CreatePartitionsRequest request, Attempt attempt);

    ListTopicsResponse listTopics(HostPort node, ListTopicsRequest request, Attempt attempt);

    DescribeTopicsResponse describeTopics(HostPort node, DescribeTopicsRequest request, Attempt attempt);

    DescribeConfigsResponse describeConfigs(HostPort node, DescribeConfigsRequest request, Attempt attempt);

    IncrementalAlterConfigsResponse incrementalAlterConfigs(HostPort node, IncrementalAlterConfigsRequest request,
            Attempt attempt);

    DescribeClusterResponse describeCluster(HostPort node, DescribeClusterRequest request, Attempt attempt);

    CreateAclsResponse createAcls(HostPort node, CreateAclsRequest request, Attempt attempt);

    DescribeAclsResponse describeAcls(HostPort node, DescribeAclsRequest request, Attempt attempt);

    DeleteAclsResponse deleteAcls(HostPort node, DeleteAclsRequest request, Attempt attempt);

    ExplainAclResponse explainAcl(HostPort node, ExplainAclRequest request, Attempt attempt);

    AlterUserScramCredentialsResponse alterUserScramCredentials(HostPort node,
            AlterUserScramCredentialsRequest request, Attempt attempt);

    DescribeUserScramCredentialsResponse describeUserScramCredentials(HostPort node,
            DescribeUserScramCredentialsRequest request, Attempt attempt);

    @Override
    void close();
}
