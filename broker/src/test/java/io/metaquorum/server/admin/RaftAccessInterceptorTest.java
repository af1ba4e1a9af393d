package io.metaquorum.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.NodeRequests;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.AddVoterResponse;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.BeginQuorumEpochResponse;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.EndQuorumEpochResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.FetchSnapshotResponse;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.UpdateVoterResponse;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.grpc.IdentityInterceptor;
import io.metaquorum.security.grpc.RaftAccessInterceptor;
import io.metaquorum.security.grpc.RefusalLog;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The raft service's rows of the authorization table, through the interceptor in front of it,
 * over a plaintext listener (so every caller is {@code User:ANONYMOUS} from 127.0.0.1): denied
 * with PERMISSION_DENIED naming CLUSTER_AUTHORIZATION_FAILED before the service runs; allowed
 * as a super user, or with the one ACL of the row; and off, everything passes.
 */
class RaftAccessInterceptorTest {
    private final AtomicInteger served = new AtomicInteger();
    private TestControllerGateway gateway;
    private Server server;
    private ManagedChannel channel;

    /** Each raft RPC, called once with an empty request. */
    private static final Map<String, Function<RaftServiceGrpc.RaftServiceBlockingStub, Object>> CALLS = Map.of(
            "Vote", stub -> stub.vote(VoteRequest.getDefaultInstance()),
            "BeginQuorumEpoch", stub -> stub.beginQuorumEpoch(BeginQuorumEpochRequest.getDefaultInstance()),
            "EndQuorumEpoch", stub -> stub.endQuorumEpoch(EndQuorumEpochRequest.getDefaultInstance()),
            "Fetch", stub -> stub.fetch(FetchRequest.getDefaultInstance()),
            "FetchSnapshot", stub -> stub.fetchSnapshot(FetchSnapshotRequest.getDefaultInstance()),
            "DescribeQuorum", stub -> stub.describeQuorum(DescribeQuorumRequest.getDefaultInstance()),
            "AddVoter", stub -> stub.addVoter(AddVoterRequest.getDefaultInstance()),
            "RemoveVoter", stub -> stub.removeVoter(RemoveVoterRequest.getDefaultInstance()),
            "UpdateVoter", stub -> stub.updateVoter(UpdateVoterRequest.getDefaultInstance()));

    @AfterEach
    void stop() throws Exception {
        if (channel != null) {
            channel.shutdownNow();
        }
        if (server != null) {
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private RaftServiceGrpc.RaftServiceBlockingStub serve(NodeAccess access) throws Exception {
        gateway = new TestControllerGateway(1).becomeActive();
        IdentityInterceptor identity = new IdentityInterceptor(SslPrincipalMapping.parse("DEFAULT"), Set.of(),
                new RefusalLog("[test] ", System::nanoTime));
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerInterceptors.intercept(new CountingRaftService(), RaftAccessInterceptor.after(
                        identity, new RaftAccessInterceptor(access, gateway::committedImage))))
                .build().start();
        channel = NettyChannelBuilder.forAddress((InetSocketAddress) server.getListenSockets().get(0))
                .usePlaintext().build();
        return RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    @Test
    void withoutRightsEveryRaftRpcIsRefusedBeforeItRuns() throws Exception {
        RaftServiceGrpc.RaftServiceBlockingStub stub = serve(NodeAccess.enabled(AuthorizerSettings.DEFAULT,
                decision -> { }));
        assertEquals(raftRows(), CALLS.keySet());
        for (Map.Entry<String, Function<RaftServiceGrpc.RaftServiceBlockingStub, Object>> call : CALLS.entrySet()) {
            StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
                    () -> call.getValue().apply(stub), call.getKey());
            assertEquals(Status.Code.PERMISSION_DENIED, refused.getStatus().getCode(), call.getKey());
            assertTrue(refused.getStatus().getDescription().startsWith("CLUSTER_AUTHORIZATION_FAILED: "
                    + Principal.ANONYMOUS), refused.getStatus().getDescription());
        }
        assertEquals(0, served.get(), "no refused call reached the service");
    }

    @Test
    void aSuperUserPassesWithoutAnyAcl() throws Exception {
        RaftServiceGrpc.RaftServiceBlockingStub stub = serve(NodeAccess.enabled(
                new AuthorizerSettings(Set.of(Principal.ANONYMOUS.toString()), false), decision -> { }));
        CALLS.values().forEach(call -> call.apply(stub));
        assertEquals(CALLS.size(), served.get());
    }

    @Test
    void theOneAclOfItsRowLetsEachRaftRpcThrough() throws Exception {
        Caller admin = new Caller(Principal.user("admin"), "127.0.0.1");
        NodeAccess access = NodeAccess.enabled(new AuthorizerSettings(Set.of(admin.principal().toString()), false),
                decision -> { });
        RaftServiceGrpc.RaftServiceBlockingStub stub = serve(access);
        try (ControllerForwarder forwarder = new ControllerForwarder(1, Map.of(), 1_000)) {
            NodeRequests node = NodeRequests.create(gateway, forwarder, AdminTestNode.CLUSTER_ID, access);
            for (AclOperation operation : List.of(AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE,
                    AclOperation.ALTER)) {
                CompletableFuture<CreateAclsResponse> created = new CompletableFuture<>();
                node.admin().createAcls(CreateAclsRequest.newBuilder().addCreations(AclCreation.newBuilder()
                        .setResourceType(ResourceType.CLUSTER.code()).setResourceName("kafka-cluster")
                        .setPatternType(PatternType.LITERAL.code()).setPrincipal(Principal.ANONYMOUS.toString())
                        .setHost("127.0.0.1").setOperation(operation.code())
                        .setPermissionType(PermissionType.ALLOW.code())).build(), CallOrigin.CLIENT.by(admin),
                        created::complete);
                assertEquals(ErrorCode.NONE, created.get(10, TimeUnit.SECONDS).getResults(0).getErrorCode());
            }
        }
        CALLS.values().forEach(call -> call.apply(stub));
        assertEquals(CALLS.size(), served.get());
    }

    @Test
    void withTheAuthorizerOffEverythingPasses() throws Exception {
        RaftServiceGrpc.RaftServiceBlockingStub stub = serve(NodeAccess.DISABLED);
        CALLS.values().forEach(call -> call.apply(stub));
        assertEquals(CALLS.size(), served.get());
    }

    private static Set<String> raftRows() {
        return Set.copyOf(io.metaquorum.node.access.RpcAccessTable.ROWS.stream()
                .filter(row -> row.service().equals("RaftService")).map(row -> row.rpc()).toList());
    }

    /** Answers every call with an empty response and counts the calls that reached it. */
    private final class CountingRaftService extends RaftServiceGrpc.RaftServiceImplBase {
        private <R> void answer(R response, StreamObserver<R> observer) {
            served.incrementAndGet();
            observer.onNext(response);
            observer.onCompleted();
        }

        @Override
        public void vote(VoteRequest request, StreamObserver<VoteResponse> observer) {
            answer(VoteResponse.getDefaultInstance(), observer);
        }

        @Override
        public void beginQuorumEpoch(BeginQuorumEpochRequest request,
                                     StreamObserver<BeginQuorumEpochResponse> observer) {
            answer(BeginQuorumEpochResponse.getDefaultInstance(), observer);
        }

        @Override
        public void endQuorumEpoch(EndQuorumEpochRequest request, StreamObserver<EndQuorumEpochResponse> observer) {
            answer(EndQuorumEpochResponse.getDefaultInstance(), observer);
        }

        @Override
        public void fetch(FetchRequest request, StreamObserver<FetchResponse> observer) {
            answer(FetchResponse.getDefaultInstance(), observer);
        }

        @Override
        public void fetchSnapshot(FetchSnapshotRequest request, StreamObserver<FetchSnapshotResponse> observer) {
            answer(FetchSnapshotResponse.getDefaultInstance(), observer);
        }

        @Override
        public void describeQuorum(DescribeQuorumRequest request, StreamObserver<DescribeQuorumResponse> observer) {
            answer(DescribeQuorumResponse.getDefaultInstance(), observer);
        }

        @Override
        public void addVoter(AddVoterRequest request, StreamObserver<AddVoterResponse> observer) {
            answer(AddVoterResponse.getDefaultInstance(), observer);
        }

        @Override
        public void removeVoter(RemoveVoterRequest request, StreamObserver<RemoveVoterResponse> observer) {
            answer(RemoveVoterResponse.getDefaultInstance(), observer);
        }

        @Override
        public void updateVoter(UpdateVoterRequest request, StreamObserver<UpdateVoterResponse> observer) {
            answer(UpdateVoterResponse.getDefaultInstance(), observer);
        }
    }
}
