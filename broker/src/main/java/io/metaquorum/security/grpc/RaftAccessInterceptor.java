package io.metaquorum.security.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.Authorizer;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.access.RpcAccess;
import io.metaquorum.node.access.RpcAccessTable;
import io.metaquorum.security.Caller;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The authorizer in front of the raft service, whose handlers live in the raft module and know
 * nothing of principals: each call is checked against its {@link RpcAccessTable} row
 * (CLUSTER_ACTION on the cluster for the consensus traffic, DESCRIBE for DescribeQuorum) on
 * the node's current image, and refused with PERMISSION_DENIED when denied. Runs after
 * {@link IdentityInterceptor}, which names the caller. The node principals pass through
 * {@code super.users} without reading an ACL, so a quorum still electing its first leader
 * is never refused by a log it has not replicated yet.
 */
public final class RaftAccessInterceptor implements ServerInterceptor {
    private static final String RAFT_SERVICE = "RaftService";

    private final NodeAccess access;
    private final Supplier<MetadataImage> image;
    /** The raft service's rows by gRPC full method name, looked up once per call (Fetch is frequent). */
    private final Map<String, RpcAccess> rows = new TreeMap<>();

    public RaftAccessInterceptor(NodeAccess access, Supplier<MetadataImage> image) {
        this.access = access;
        this.image = image;
        RpcAccessTable.ROWS.stream().filter(row -> row.service().equals(RAFT_SERVICE))
                .forEach(row -> rows.put(row.fullMethodName(), row));
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                      ServerCallHandler<Q, R> next) {
        if (!access.isEnabled()) {
            return next.startCall(call, headers);
        }
        RpcAccess row = rows.get(call.getMethodDescriptor().getFullMethodName());
        Caller caller = IdentityInterceptor.current();
        if (row == null || access.allows(image.get(), caller, row.operation(), ResourceType.CLUSTER,
                Authorizer.CLUSTER_NAME, true)) {
            return next.startCall(call, headers);
        }
        call.close(Status.PERMISSION_DENIED.withDescription("CLUSTER_AUTHORIZATION_FAILED: " + caller.principal()
                + " may not do " + row.operation() + " on the cluster (" + row.rpc() + ")"), new Metadata());
        return new ServerCall.Listener<>() { };
    }

    /** {@code identity} first, then {@code then}: the second sees the caller the first named. */
    public static ServerInterceptor after(ServerInterceptor identity, ServerInterceptor then) {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                              ServerCallHandler<Q, R> next) {
                return identity.interceptCall(call, headers, (c, h) -> then.interceptCall(c, h, next));
            }
        };
    }
}
