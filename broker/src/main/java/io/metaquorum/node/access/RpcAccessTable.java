package io.metaquorum.node.access;

import static io.metaquorum.metadata.acl.AclOperation.ALTER;
import static io.metaquorum.metadata.acl.AclOperation.ALTER_CONFIGS;
import static io.metaquorum.metadata.acl.AclOperation.CLUSTER_ACTION;
import static io.metaquorum.metadata.acl.AclOperation.CREATE;
import static io.metaquorum.metadata.acl.AclOperation.DELETE;
import static io.metaquorum.metadata.acl.AclOperation.DESCRIBE;
import static io.metaquorum.metadata.acl.AclOperation.DESCRIBE_CONFIGS;
import static io.metaquorum.node.access.RpcAccess.Resource.CLUSTER;
import static io.metaquorum.node.access.RpcAccess.Resource.CLUSTER_OR_TOPIC;
import static io.metaquorum.node.access.RpcAccess.Resource.CONFIG_RESOURCE;
import static io.metaquorum.node.access.RpcAccess.Resource.TOPIC;

import java.util.List;

/**
 * Every RPC of every service a node serves, with what it needs of its caller when
 * {@code authorizer.enabled=true}: Kafka's choices, API by API (docs/security.md,
 * "Authorization"). The handlers check what their row says; the README prints this table
 * ({@link #markdown()}), and a test fails when a service has an RPC without a row.
 *
 * <p>Node traffic (raft, broker lifecycle, forwarding) needs CLUSTER_ACTION on the cluster,
 * which the nodes' principals hold through {@code super.users}, a static setting: the quorum
 * never needs an ACL from the log it has to elect a leader to read.
 */
public final class RpcAccessTable {
    static final String PROTO_PACKAGE = "metaquorum.protocol";
    private static final String ADMIN = "AdminService";
    private static final String LIFECYCLE = "BrokerLifecycleService";
    private static final String RAFT = "RaftService";
    private static final String NODE_TRAFFIC = "node traffic (a node principal in super.users); else "
            + "CLUSTER_AUTHORIZATION_FAILED";
    private static final String RAFT_TRAFFIC = "node traffic (a node principal in super.users); else gRPC "
            + "PERMISSION_DENIED naming CLUSTER_AUTHORIZATION_FAILED";

    public static final List<RpcAccess> ROWS = List.of(
            new RpcAccess(ADMIN, "CreateTopics", CREATE, CLUSTER_OR_TOPIC, "TOPIC_AUTHORIZATION_FAILED per topic, "
                    + "also for one that exists; a created topic's id, counts and configs also need DESCRIBE_CONFIGS "
                    + "on it (else topic_config_error_code TOPIC_AUTHORIZATION_FAILED)"),
            new RpcAccess(ADMIN, "DeleteTopics", DELETE, CLUSTER_OR_TOPIC, "by name: DESCRIBE on the TOPIC "
                    + "first (else TOPIC_AUTHORIZATION_FAILED, whether or not it exists), then "
                    + "UNKNOWN_TOPIC_OR_PARTITION for one that does not exist, DELETE for one that does; by id: DELETE "
                    + "on the TOPIC"),
            new RpcAccess(ADMIN, "CreatePartitions", ALTER, TOPIC, "TOPIC_AUTHORIZATION_FAILED per topic"),
            new RpcAccess(ADMIN, "ListTopics", DESCRIBE, TOPIC, "topics without it are left out silently"),
            new RpcAccess(ADMIN, "DescribeTopics", DESCRIBE, TOPIC, "a named topic without it: "
                    + "TOPIC_AUTHORIZATION_FAILED with the id zeroed, whether or not it exists; all topics, or a "
                    + "page: left out silently"),
            new RpcAccess(ADMIN, "DescribeConfigs", DESCRIBE_CONFIGS, CONFIG_RESOURCE, "per resource: "
                    + "TOPIC_AUTHORIZATION_FAILED or CLUSTER_AUTHORIZATION_FAILED; DESCRIBE is not enough"),
            new RpcAccess(ADMIN, "IncrementalAlterConfigs", ALTER_CONFIGS, CONFIG_RESOURCE, "per resource, as "
                    + "DescribeConfigs; ALTER is not enough"),
            new RpcAccess(ADMIN, "DescribeCluster", DESCRIBE, CLUSTER, "CLUSTER_AUTHORIZATION_FAILED"),
            new RpcAccess(ADMIN, "CreateAcls", ALTER, CLUSTER, "checked before the ACLs are validated"),
            new RpcAccess(ADMIN, "DescribeAcls", DESCRIBE, CLUSTER, "ALTER on CLUSTER implies it"),
            new RpcAccess(ADMIN, "DeleteAcls", ALTER, CLUSTER, "checked before the filters are validated"),
            new RpcAccess(ADMIN, "ExplainAcl", DESCRIBE, CLUSTER, "it tells which ACLs exist, as DescribeAcls does"),
            new RpcAccess(ADMIN, "AlterUserScramCredentials", ALTER, CLUSTER, "CLUSTER_AUTHORIZATION_FAILED for "
                    + "every user, checked before the alterations are validated"),
            new RpcAccess(ADMIN, "DescribeUserScramCredentials", DESCRIBE, CLUSTER, "CLUSTER_AUTHORIZATION_FAILED; "
                    + "ALTER on CLUSTER implies it; tells mechanisms and iterations, never salts or keys"),
            new RpcAccess(LIFECYCLE, "RegisterBroker", CLUSTER_ACTION, CLUSTER, NODE_TRAFFIC),
            new RpcAccess(LIFECYCLE, "BrokerHeartbeat", CLUSTER_ACTION, CLUSTER, NODE_TRAFFIC),
            new RpcAccess(LIFECYCLE, "ControlledShutdown", CLUSTER_ACTION, CLUSTER, NODE_TRAFFIC),
            new RpcAccess(RAFT, "Vote", CLUSTER_ACTION, CLUSTER, RAFT_TRAFFIC),
            new RpcAccess(RAFT, "BeginQuorumEpoch", CLUSTER_ACTION, CLUSTER, RAFT_TRAFFIC),
            new RpcAccess(RAFT, "EndQuorumEpoch", CLUSTER_ACTION, CLUSTER, RAFT_TRAFFIC),
            new RpcAccess(RAFT, "Fetch", CLUSTER_ACTION, CLUSTER, RAFT_TRAFFIC),
            new RpcAccess(RAFT, "FetchSnapshot", CLUSTER_ACTION, CLUSTER, RAFT_TRAFFIC),
            new RpcAccess(RAFT, "DescribeQuorum", DESCRIBE, CLUSTER, "gRPC PERMISSION_DENIED naming "
                    + "CLUSTER_AUTHORIZATION_FAILED"),
            new RpcAccess(RAFT, "AddVoter", ALTER, CLUSTER, "gRPC PERMISSION_DENIED naming "
                    + "CLUSTER_AUTHORIZATION_FAILED (Kafka's AddRaftVoter)"),
            new RpcAccess(RAFT, "RemoveVoter", ALTER, CLUSTER, "gRPC PERMISSION_DENIED naming "
                    + "CLUSTER_AUTHORIZATION_FAILED (Kafka's RemoveRaftVoter)"),
            new RpcAccess(RAFT, "UpdateVoter", CLUSTER_ACTION, CLUSTER, RAFT_TRAFFIC
                    + " (Kafka's UpdateRaftVoter: a voter whose listener moved sends it itself)"));

    /** A forwarded write also needs this of the forwarding node's principal (Kafka's Envelope). */
    public static final String FORWARDED = "a forwarded write: the forwarding node's principal needs CLUSTER_ACTION "
            + "on CLUSTER, and the client's rights are checked on the controller as if it had called it";

    private RpcAccessTable() {
    }

    /** The table as the README prints it. */
    public static String markdown() {
        StringBuilder out = new StringBuilder("| service | RPC | needs | how |\n|---|---|---|---|\n");
        for (RpcAccess row : ROWS) {
            out.append("| ").append(row.service()).append(" | ").append(row.rpc()).append(" | ")
                    .append(row.need()).append(" | ").append(row.detail()).append(" |\n");
        }
        out.append("\nAnd ").append(FORWARDED).append(".\n");
        return out.toString();
    }
}
