package io.metaquorum.client.grpc;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.metaquorum.client.transport.Attempt;
import io.metaquorum.client.transport.AdminTransport;
import io.metaquorum.security.grpc.ClientSecurity;
import io.metaquorum.client.transport.TransportFailure;
import io.metaquorum.protocol.AdminServiceGrpc;
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
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.net.HostPort;
import io.metaquorum.server.admin.AclOffsetHeader;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.SSLException;

/**
 * {@link AdminTransport} over gRPC: one channel per node, opened on first use and kept until
 * {@link #close()}. A call that ends in a gRPC status instead of an answer becomes a
 * {@link TransportFailure} classed by {@link #classify(Status.Code)}. The attempt's ACL offset
 * goes in the {@code mq-acl-offset} header, written by the server's own {@link AclOffsetHeader}
 * so that both ends spell it alike.
 */
public final class GrpcAdminTransport implements AdminTransport {
    private static final int RESPONSE_BYTES_MAX = 64 << 20;
    private static final long CLOSE_WAIT_MS = 2_000;

    /** What gRPC says when the server closed a connection before HTTP/2 began, as a TLS port does to plaintext. */
    private static final String CLOSED_UNANSWERED = "Network closed for unknown reason";

    private final Function<HostPort, ManagedChannel> channelFactory;
    private final boolean plaintext;
    private final Map<HostPort, ManagedChannel> channels = new LinkedHashMap<>();

    /** {@code channelFactory}: how a channel to a node is built (plaintext Netty in production). */
    public GrpcAdminTransport(Function<HostPort, ManagedChannel> channelFactory) {
        this(channelFactory, true);
    }

    private GrpcAdminTransport(Function<HostPort, ManagedChannel> channelFactory, boolean plaintext) {
        this.channelFactory = channelFactory;
        this.plaintext = plaintext;
    }

    public static GrpcAdminTransport plaintext() {
        return connecting(ClientSecurity.PLAINTEXT);
    }

    /** Channels secured as {@code security} says: plaintext, or TLS with or without a client certificate. */
    public static GrpcAdminTransport connecting(ClientSecurity security) {
        return new GrpcAdminTransport(node -> NettyChannelBuilder.forAddress(node.host(), node.port(),
                        security.credentials())
                .disableRetry()
                .maxInboundMessageSize(RESPONSE_BYTES_MAX)
                .build(), security.isPlaintext());
    }

    /**
     * The handling class of a call that got no answer. UNAVAILABLE (nothing listens, the
     * connection broke) and DEADLINE_EXCEEDED (this attempt's share of the deadline passed:
     * the node may be hung) try another node; RESOURCE_EXHAUSTED and ABORTED retry the same
     * one; the rest (UNIMPLEMENTED: the node serves no admin API; an internal error) are final.
     */
    public static ErrorClass classify(Status.Code code) {
        return switch (code) {
            case UNAVAILABLE, DEADLINE_EXCEEDED -> ErrorClass.REFRESH_AND_RETRY;
            case RESOURCE_EXHAUSTED, ABORTED -> ErrorClass.RETRIABLE;
            case UNAUTHENTICATED, PERMISSION_DENIED -> ErrorClass.AUTHORIZATION;
            default -> ErrorClass.INVALID_REQUEST_CLASS;
        };
    }

    /** The code reported when a call gives up on this status. */
    static ErrorCode reportedCode(Status.Code code) {
        return switch (code) {
            case UNAVAILABLE -> ErrorCode.NETWORK_EXCEPTION;
            case DEADLINE_EXCEEDED -> ErrorCode.REQUEST_TIMED_OUT;
            case UNIMPLEMENTED -> ErrorCode.UNSUPPORTED_VERSION;
            case UNAUTHENTICATED, PERMISSION_DENIED -> ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
            default -> ErrorCode.UNKNOWN_SERVER_ERROR;
        };
    }

    @Override
    public CreateTopicsResponse createTopics(HostPort node, CreateTopicsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.createTopics(request));
    }

    @Override
    public DeleteTopicsResponse deleteTopics(HostPort node, DeleteTopicsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.deleteTopics(request));
    }

    @Override
    public CreatePartitionsResponse createPartitions(HostPort node, CreatePartitionsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.createPartitions(request));
    }

    @Override
    public ListTopicsResponse listTopics(HostPort node, ListTopicsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.listTopics(request));
    }

    @Override
    public DescribeTopicsResponse describeTopics(HostPort node, DescribeTopicsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.describeTopics(request));
    }

    @Override
    public DescribeConfigsResponse describeConfigs(HostPort node, DescribeConfigsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.describeConfigs(request));
    }

    @Override
    public IncrementalAlterConfigsResponse incrementalAlterConfigs(HostPort node,
            IncrementalAlterConfigsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.incrementalAlterConfigs(request));
    }

    @Override
    public DescribeClusterResponse describeCluster(HostPort node, DescribeClusterRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.describeCluster(request));
    }

    @Override
    public CreateAclsResponse createAcls(HostPort node, CreateAclsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.createAcls(request));
    }

    @Override
    public DescribeAclsResponse describeAcls(HostPort node, DescribeAclsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.describeAcls(request));
    }

    @Override
    public AlterUserScramCredentialsResponse alterUserScramCredentials(HostPort node,
            AlterUserScramCredentialsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.alterUserScramCredentials(request));
    }

    @Override
    public DescribeUserScramCredentialsResponse describeUserScramCredentials(HostPort node,
            DescribeUserScramCredentialsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.describeUserScramCredentials(request));
    }

    @Override
    public DeleteAclsResponse deleteAcls(HostPort node, DeleteAclsRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.deleteAcls(request));
    }

    @Override
    public ExplainAclResponse explainAcl(HostPort node, ExplainAclRequest request, Attempt attempt) {
        return call(node, attempt, stub -> stub.explainAcl(request));
    }

    private <P> P call(HostPort node, Attempt attempt,
            Function<AdminServiceGrpc.AdminServiceBlockingStub, P> rpc) {
        AdminServiceGrpc.AdminServiceBlockingStub stub = AdminServiceGrpc.newBlockingStub(channel(node))
                .withDeadlineAfter(attempt.timeoutMs(), TimeUnit.MILLISECONDS)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers(attempt)));
        try {
            return rpc.apply(stub);
        } catch (StatusRuntimeException e) {
            Status status = e.getStatus();
            String description = (status.getDescription() == null ? "" : ": " + status.getDescription())
                    + (status.getCause() == null || status.getCause().getMessage() == null ? ""
                            : " (" + status.getCause().getMessage() + ")");
            String hint = status.getCode() == Status.Code.UNIMPLEMENTED ? " (this node serves no admin API)"
                    : plaintext && CLOSED_UNANSWERED.equals(status.getDescription())
                    ? " (a TLS listener closes plaintext connections so: does the cluster need --command-config"
                            + " with security.protocol=SSL?)" : "";
            SSLException handshake = handshakeFailure(e);
            if (handshake != null) {
                // Another node has the same certificates to refuse: retrying would only wait out the deadline.
                throw new TransportFailure(ErrorClass.AUTHORIZATION, ErrorCode.NETWORK_EXCEPTION, "TLS handshake with "
                        + node + " failed: " + handshake.getMessage() + " (check the key store, the trust store and"
                        + " security.protocol of --command-config)", e);
            }
            throw new TransportFailure(classify(status.getCode()), reportedCode(status.getCode()),
                    "gRPC " + status.getCode() + description + hint, e);
        }
    }

    /** The headers an attempt sends: the client's ACL offset, when it has changed ACLs. */
    static Metadata headers(Attempt attempt) {
        Metadata headers = new Metadata();
        AclOffsetHeader.write(attempt.aclOffset(), headers);
        return headers;
    }

    /** The TLS failure behind a call's failure, if that is what it was. */
    static SSLException handshakeFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException ssl) {
                return ssl;
            }
        }
        return null;
    }

    private synchronized ManagedChannel channel(HostPort node) {
        return channels.computeIfAbsent(node, channelFactory);
    }

    @Override
    public synchronized void close() {
        for (ManagedChannel channel : channels.values()) {
            channel.shutdownNow();
        }
        for (ManagedChannel channel : channels.values()) {
            try {
                channel.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        channels.clear();
    }
}
