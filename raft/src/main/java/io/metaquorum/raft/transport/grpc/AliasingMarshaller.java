package io.metaquorum.raft.transport.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.Marshaller;
import io.grpc.Status;
import io.metaquorum.common.proto.AliasingParser;
import java.io.IOException;
import java.io.InputStream;

/**
 * Parses a message whose {@code bytes} fields point into the one array the message was
 * read into, instead of each being copied out of it again. Fetch and FetchSnapshot
 * answers are mostly record blocks and snapshot chunks, so this halves the bytes copied
 * per replicated record. Safe because the array is private to the parsed message.
 */
final class AliasingMarshaller<T extends Message> implements Marshaller<T> {
    private final Marshaller<T> serializer;
    private final Parser<T> parser;

    private AliasingMarshaller(Marshaller<T> serializer, Parser<T> parser) {
        this.serializer = serializer;
        this.parser = parser;
    }

    /** {@code method} with its responses parsed by aliasing (requests unchanged). */
    static <Q, R extends Message> MethodDescriptor<Q, R> aliasingResponses(MethodDescriptor<Q, R> method,
                                                                          Parser<R> parser) {
        return method.toBuilder(method.getRequestMarshaller(),
                new AliasingMarshaller<>(method.getResponseMarshaller(), parser)).build();
    }

    @Override
    public InputStream stream(T value) {
        return serializer.stream(value);
    }

    @Override
    public T parse(InputStream stream) {
        try {
            return AliasingParser.parse(parser, readFully(stream));
        } catch (InvalidProtocolBufferException e) {
            throw Status.INTERNAL.withDescription("invalid protobuf answer").withCause(e).asRuntimeException();
        } catch (IOException e) {
            throw Status.INTERNAL.withDescription("cannot read the answer").withCause(e).asRuntimeException();
        }
    }

    private static byte[] readFully(InputStream stream) throws IOException {
        if (stream instanceof KnownLength) {
            int size = stream.available();
            byte[] bytes = new byte[size];
            int read = stream.readNBytes(bytes, 0, size);
            if (read == size && stream.read() == -1) {
                return bytes;
            }
            throw new IOException("the answer's stream did not hold its announced " + size + " bytes");
        }
        return stream.readAllBytes();
    }
}
