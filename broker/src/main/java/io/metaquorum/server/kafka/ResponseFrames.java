package io.metaquorum.server.kafka;

import java.nio.ByteBuffer;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestUtils;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * A response as it goes on the wire: its int32 size, the response header at the version the
 * request's API and version call for (v0 for ApiVersions, whatever its version, so a client
 * can read the answer before it knows which versions we speak), then the body at the
 * request's version. Serialized by Kafka's generated classes.
 */
final class ResponseFrames {
    private ResponseFrames() {
    }

    /** The frame answering request {@code correlationId} of {@code apiKey} at {@code apiVersion}. */
    static ByteBuffer frame(ApiKeys apiKey, short apiVersion, int correlationId, AbstractResponse response) {
        short headerVersion = apiKey.responseHeaderVersion(apiVersion);
        ResponseHeader header = new ResponseHeader(correlationId, headerVersion);
        ByteBuffer body = RequestUtils.serialize(header.data(), headerVersion, response.data(), apiVersion);
        ByteBuffer frame = ByteBuffer.allocate(KafkaFrameDecoder.SIZE_BYTES + body.remaining());
        frame.putInt(body.remaining()).put(body).flip();
        return frame;
    }
}
