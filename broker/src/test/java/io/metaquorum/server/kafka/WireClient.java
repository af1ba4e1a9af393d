package io.metaquorum.server.kafka;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * A raw socket speaking Kafka's framing with Kafka's own request and response classes: what
 * a Kafka client writes, byte for byte, without its connection logic, so a test chooses every
 * version and correlation id, and can send bytes no client would.
 */
final class WireClient implements AutoCloseable {
    /** How long a read may block: a bound that keeps a broken server from hanging the test. */
    static final int READ_TIMEOUT_MS = 10_000;

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    WireClient(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(READ_TIMEOUT_MS);
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    static WireClient connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), READ_TIMEOUT_MS);
        return new WireClient(socket);
    }

    static RequestHeader header(ApiKeys key, short version, int correlationId) {
        return new RequestHeader(key, version, "wire-test", correlationId);
    }

    /** Writes {@code request} with its header, framed. */
    void send(RequestHeader header, AbstractRequest request) throws IOException {
        sendFrame(request.serializeWithHeader(header));
    }

    /** Writes {@code payload} behind its int32 size. */
    void sendFrame(ByteBuffer payload) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(Integer.BYTES + payload.remaining());
        frame.putInt(payload.remaining()).put(payload.duplicate()).flip();
        sendRaw(frame.array());
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next response frame's payload; empty when the server closed the connection instead. */
    Optional<ByteBuffer> readFrame() throws IOException {
        try {
            int size = in.readInt();
            byte[] payload = new byte[size];
            in.readFully(payload);
            return Optional.of(ByteBuffer.wrap(payload));
        } catch (EOFException | SocketException e) {
            return Optional.empty();
        }
    }

    /** The response to {@code header}'s request: its correlation id checked, its body parsed at that version. */
    AbstractResponse receive(RequestHeader header) throws IOException {
        ByteBuffer frame = readFrame().orElseThrow(() -> new IOException("closed instead of answering " + header));
        return AbstractResponse.parseResponse(frame, header);
    }

    /** The next response frame's header and body, read as {@code key} at {@code version}. */
    Response receive(ApiKeys key, short version) throws IOException {
        ByteBuffer frame = readFrame().orElseThrow(() -> new IOException("closed instead of answering"));
        ResponseHeader header = ResponseHeader.parse(frame, key.responseHeaderVersion(version));
        return new Response(header.correlationId(), AbstractResponse.parseResponse(key,
                new org.apache.kafka.common.protocol.ByteBufferAccessor(frame), version));
    }

    record Response(int correlationId, AbstractResponse body) {
    }

    /** Ends what this side sends: the server reads end-of-stream after the bytes sent. */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Whether the server closed the connection: a read ends without data. */
    boolean closedByServer() throws IOException {
        InputStream stream = socket.getInputStream();
        try {
            return stream.read() == -1;
        } catch (SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
