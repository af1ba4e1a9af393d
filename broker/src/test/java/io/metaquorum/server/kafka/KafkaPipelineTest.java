package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.net.HostPort;
import io.metaquorum.node.kafka.KafkaApiHandler;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.grpc.RefusalLog;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.jupiter.api.Test;

/**
 * The connection pipeline on an {@link EmbeddedChannel}, byte by byte: framing (a frame split
 * anywhere waits, sizes out of range close), response header versions, the order of answers,
 * and the in-flight limit that stops reading.
 */
class KafkaPipelineTest {
    private static final int FRAME_MAX = 4096;
    private final List<Consumer<AbstractResponse>> replies = new ArrayList<>();

    private EmbeddedChannel channel() {
        KafkaApiHandler holding = (call, request, reply) -> replies.add(reply);
        KafkaApis apis = KafkaApis.withApiVersions(Map.of(ApiKeys.DESCRIBE_CLUSTER, holding));
        EmbeddedChannel channel = new EmbeddedChannel();
        KafkaListenerServer.pipeline(channel.pipeline(), new KafkaListenerSettings("[node 9] ", "EXTERNAL",
                new HostPort("127.0.0.1", 0), Optional.empty(), SslPrincipalMapping.parse("DEFAULT"), new RefusalLog("[node 9] ", System::nanoTime),
                FRAME_MAX, 600_000), apis, ScramCredentialStore.NONE, Runnable::run);
        return channel;
    }

    private static byte[] frame(RequestHeader header, org.apache.kafka.common.requests.AbstractRequest request) {
        ByteBuffer payload = request.serializeWithHeader(header);
        ByteBuffer frame = ByteBuffer.allocate(4 + payload.remaining()).putInt(payload.remaining()).put(payload);
        return frame.array();
    }

    private static byte[] describeCluster(int correlationId) {
        short version = ApiKeys.DESCRIBE_CLUSTER.latestVersion();
        return frame(new RequestHeader(ApiKeys.DESCRIBE_CLUSTER, version, "t", correlationId),
                new DescribeClusterRequest.Builder(new DescribeClusterRequestData()).build(version));
    }

    /** The written frame, its size checked and stripped. */
    private static ByteBuffer written(EmbeddedChannel channel) {
        ByteBuf out = channel.readOutbound();
        if (out == null) {
            return null;
        }
        ByteBuffer bytes = ByteBuffer.allocate(out.readableBytes());
        out.readBytes(bytes);
        out.release();
        bytes.flip();
        assertEquals(bytes.remaining() - 4, bytes.getInt(), "the size prefix counts the rest");
        return bytes;
    }

    @Test
    void aFrameSplitAtEveryByteIsServedOnceWhole() {
        byte[] request = frame(new RequestHeader(ApiKeys.API_VERSIONS, (short) 3, "t", 5),
                new ApiVersionsRequest.Builder().build((short) 3));
        EmbeddedChannel channel = channel();
        for (byte b : request) {
            assertNull(channel.readOutbound(), "nothing answered before the frame is whole");
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        ByteBuffer response = written(channel);
        ResponseHeader header = ResponseHeader.parse(response, (short) 0);
        assertEquals(5, header.correlationId());
        ApiVersionsResponse body = (ApiVersionsResponse) AbstractResponse.parseResponse(ApiKeys.API_VERSIONS,
                new ByteBufferAccessor(response), (short) 3);
        assertEquals(Errors.NONE.code(), body.data().errorCode());
        assertFalse(response.hasRemaining(), "ApiVersions v3 answers with header v0: nothing left over");
        assertTrue(channel.isActive());
    }

    @Test
    void aFlexibleApiAnswersWithResponseHeaderV1() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(describeCluster(9)));
        replies.get(0).accept(new DescribeClusterResponse(new DescribeClusterResponseData().setClusterId("c")));
        ByteBuffer response = written(channel);
        short version = ApiKeys.DESCRIBE_CLUSTER.latestVersion();
        assertEquals(1, ApiKeys.DESCRIBE_CLUSTER.responseHeaderVersion(version));
        assertEquals(9, ResponseHeader.parse(response, (short) 1).correlationId());
        DescribeClusterResponse body = (DescribeClusterResponse) AbstractResponse.parseResponse(
                ApiKeys.DESCRIBE_CLUSTER, new ByteBufferAccessor(response), version);
        assertEquals("c", body.data().clusterId());
    }

    @Test
    void answersWaitForEveryEarlierOne() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.wrappedBuffer(describeCluster(1)), Unpooled.wrappedBuffer(describeCluster(2)),
                Unpooled.wrappedBuffer(describeCluster(3)));
        assertEquals(3, replies.size());
        replies.get(2).accept(new DescribeClusterResponse(new DescribeClusterResponseData()));
        replies.get(1).accept(new DescribeClusterResponse(new DescribeClusterResponseData()));
        assertNull(channel.readOutbound(), "2 and 3 wait for 1");
        replies.get(0).accept(new DescribeClusterResponse(new DescribeClusterResponseData()));
        for (int correlationId = 1; correlationId <= 3; correlationId++) {
            assertEquals(correlationId, ResponseHeader.parse(written(channel), (short) 1).correlationId());
        }
        replies.get(0).accept(new DescribeClusterResponse(new DescribeClusterResponseData()));
        assertNull(channel.readOutbound(), "a second reply to one request writes nothing");
    }

    @Test
    void readingStopsAtTheInFlightLimitAndResumesWhenAnswered() {
        EmbeddedChannel channel = channel();
        for (int i = 0; i < KafkaRequestHandler.IN_FLIGHT_REQUESTS_MAX; i++) {
            assertTrue(channel.config().isAutoRead(), "reads below the limit");
            channel.writeInbound(Unpooled.wrappedBuffer(describeCluster(i)));
        }
        assertFalse(channel.config().isAutoRead(), "stops at the limit");
        replies.get(0).accept(new DescribeClusterResponse(new DescribeClusterResponseData()));
        assertTrue(channel.config().isAutoRead(), "reads again once one is written");
    }

    @Test
    void sizesOutOfRangeCloseTheConnection() {
        for (int size : List.of(-1, Integer.MIN_VALUE, FRAME_MAX + 1, Integer.MAX_VALUE)) {
            EmbeddedChannel channel = channel();
            channel.writeInbound(Unpooled.wrappedBuffer(ByteBuffer.allocate(4).putInt(size).array()));
            assertFalse(channel.isActive(), "size " + size);
            assertTrue(replies.isEmpty());
        }
        EmbeddedChannel empty = channel();
        empty.writeInbound(Unpooled.wrappedBuffer(new byte[4]));
        assertFalse(empty.isActive(), "an empty frame holds no header");
    }

    @Test
    void anUnknownApiKeyOrAVersionNoKafkaReleaseHasCloses() {
        EmbeddedChannel unknownKey = channel();
        unknownKey.writeInbound(Unpooled.wrappedBuffer(ByteBuffer.allocate(12).putInt(8).putShort((short) 9999)
                .putShort((short) 0).putInt(1).array()));
        assertFalse(unknownKey.isActive());
        EmbeddedChannel tooNew = channel();
        byte[] request = describeCluster(1);
        ByteBuffer.wrap(request).putShort(6, (short) 999);
        tooNew.writeInbound(Unpooled.wrappedBuffer(request));
        assertFalse(tooNew.isActive());
        assertTrue(replies.isEmpty(), "no handler saw either");
    }
}
