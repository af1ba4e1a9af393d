package io.metaquorum.bench;

import io.grpc.ManagedChannel;
import io.grpc.ChannelCredentials;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.AdminServiceGrpc;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.ErrorCode;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * CreateTopics calls that ask the node for a request trace (the {@code mq-trace} header, see
 * docs/benchmarks.md "Where a create spends its time") and return it with the client's own
 * time, for {@code create-one --breakdown}. Calls go to one node, with no retry: a call the
 * node does not answer with every topic created fails the run, naming the error.
 */
final class TracedCreates implements AutoCloseable {
    private static final Metadata.Key<String> TRACE = Metadata.Key.of("mq-trace", Metadata.ASCII_STRING_MARSHALLER);

    private final HostPort node;
    private final ManagedChannel channel;
    private final long timeoutMs;

    TracedCreates(HostPort node, long timeoutMs, ChannelCredentials credentials) {
        this.node = node;
        this.timeoutMs = timeoutMs;
        this.channel = NettyChannelBuilder.forAddress(node.host(), node.port(), credentials).build();
    }

    /** One traced CreateTopics of {@code topics}, answered once committed; its client time and the node's trace. */
    CreateTrace create(List<CreatableTopic> topics) {
        return create(topics, false);
    }

    /**
     * One traced CreateTopics of {@code topics}; with {@code validateOnly} the controller runs
     * every check and answers without writing, so the call takes the same path with no commit.
     */
    CreateTrace create(List<CreatableTopic> topics, boolean validateOnly) {
        Metadata ask = new Metadata();
        ask.put(TRACE, "1");
        AtomicReference<Metadata> trailers = new AtomicReference<>();
        AdminServiceGrpc.AdminServiceBlockingStub stub = AdminServiceGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(ask),
                        MetadataUtils.newCaptureMetadataInterceptor(new AtomicReference<>(), trailers))
                .withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS);
        CreateTopicsRequest request = CreateTopicsRequest.newBuilder().addAllTopics(topics)
                .setTimeoutMs((int) Math.min(Integer.MAX_VALUE, timeoutMs)).setValidateOnly(validateOnly).build();
        long start = System.nanoTime();
        CreateTopicsResponse response = stub.createTopics(request);
        long clientMicros = (System.nanoTime() - start) / 1_000;
        if (response.getHeader().getErrorCode() != ErrorCode.NONE) {
            throw new IllegalStateException("CreateTopics to " + node + ": " + response.getHeader().getErrorCode()
                    + ": " + response.getHeader().getErrorMessage());
        }
        for (CreatableTopicResult result : response.getTopicsList()) {
            if (result.getErrorCode() != ErrorCode.NONE) {
                throw new IllegalStateException("CreateTopics to " + node + ": " + result.getErrorCode() + ": "
                        + result.getErrorMessage());
            }
        }
        String trace = trailers.get() == null ? null : trailers.get().get(TRACE);
        if (trace == null) {
            throw new IllegalStateException(node + " answered without a trace: is it a metaquorum node of this build?");
        }
        return CreateTrace.parse(clientMicros, trace);
    }

    @Override
    public void close() {
        channel.shutdownNow();
    }
}
