package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import java.util.Map;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The config, ACL and quorum APIs of the Kafka-protocol listener, for {@link KafkaApis}:
 * DescribeConfigs, IncrementalAlterConfigs, CreateAcls, DescribeAcls, DeleteAcls and
 * DescribeQuorum, each over the same call the gRPC API makes, so they have its semantics,
 * authorization and error codes. Each is served at every version Kafka's client library knows.
 */
public final class ConfigAclApis {
    private ConfigAclApis() {
    }

    /**
     * Adds this group's handlers to {@code into}.
     *
     * @param admin              this node's admin API; calls carry {@link KafkaCall#origin()}
     * @param quorum             where DescribeQuorum gets the raft leader's answer
     * @param quorumListenerName the name DescribeQuorum v2 gives each voter's listener: the
     *                           listener raft runs on (the node's listener name, which
     *                           {@code controller.listener.names} may only name)
     */
    public static void register(Map<ApiKeys, KafkaApiHandler> into, AdminRequests admin, QuorumDescriptions quorum,
                                String quorumListenerName) {
        into.put(ApiKeys.DESCRIBE_CONFIGS, new DescribeConfigsApi(admin));
        into.put(ApiKeys.INCREMENTAL_ALTER_CONFIGS, new IncrementalAlterConfigsApi(admin));
        into.put(ApiKeys.DESCRIBE_CLIENT_QUOTAS, new DescribeClientQuotasHandler(admin));
        into.put(ApiKeys.CREATE_ACLS, new CreateAclsApi(admin));
        into.put(ApiKeys.DESCRIBE_ACLS, new DescribeAclsApi(admin));
        into.put(ApiKeys.DELETE_ACLS, new DeleteAclsApi(admin));
        into.put(ApiKeys.DESCRIBE_QUORUM, new DescribeQuorumApi(admin, quorum, quorumListenerName));
    }
}
