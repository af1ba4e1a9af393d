package io.metaquorum.server.kafka;

import java.nio.ByteBuffer;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * What one frame's bytes are, read with Kafka's own classes: a request (header and body), an
 * ApiVersions request at a version newer than we know (its header parses, its body cannot,
 * and Kafka's rule is to answer it anyway so the client can retry lower), or bytes the
 * listener must refuse by closing the connection, with why. A request must use the frame
 * exactly: bytes left after its body are refused too, since no client writes them.
 */
final class RequestFrames {
    private RequestFrames() {
    }

    /** One frame's meaning. */
    sealed interface Parsed permits Request, NewerApiVersions, Refused {
    }

    /** A request to serve. */
    record Request(RequestHeader header, AbstractRequest request) implements Parsed {
    }

    /** ApiVersions at a version we do not know; answered UNSUPPORTED_VERSION at v0. */
    record NewerApiVersions(RequestHeader header) implements Parsed {
    }

    /** Not a request we can read: the connection closes. */
    record Refused(String kind, String reason) implements Parsed {
    }

    static Parsed parse(ByteBuffer frame) {
        if (frame.remaining() < 2 * Short.BYTES) {
            return new Refused("request header", "a frame of " + frame.remaining() + " bytes holds no header");
        }
        short apiKeyId = frame.getShort(frame.position());
        short apiVersion = frame.getShort(frame.position() + Short.BYTES);
        if (!ApiKeys.hasId(apiKeyId)) {
            return new Refused("request header", "unknown API key " + apiKeyId);
        }
        ApiKeys apiKey = ApiKeys.forId(apiKeyId);
        RequestHeader header;
        try {
            header = RequestHeader.parse(frame);
        } catch (RuntimeException e) {
            return new Refused("request header", apiKey + " v" + apiVersion + ": " + e);
        }
        if (!apiKey.isVersionSupported(apiVersion)) {
            if (apiKey == ApiKeys.API_VERSIONS && apiVersion > apiKey.latestVersion()) {
                return new NewerApiVersions(header);
            }
            return new Refused("API version", apiKey + " v" + apiVersion + " is outside the versions "
                    + apiKey.oldestVersion() + ".." + apiKey.latestVersion() + " this node can read");
        }
        AbstractRequest request;
        try {
            request = AbstractRequest.parseRequest(apiKey, apiVersion, new ByteBufferAccessor(frame)).request;
        } catch (RuntimeException e) {
            return new Refused("request body", apiKey + " v" + apiVersion + " does not parse: " + e);
        }
        if (frame.hasRemaining()) {
            return new Refused("request body", apiKey + " v" + apiVersion + " leaves " + frame.remaining()
                    + " bytes of its frame unread");
        }
        return new Request(header, request);
    }
}
