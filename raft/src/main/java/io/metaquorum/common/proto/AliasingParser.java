package io.metaquorum.common.proto;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;

/**
 * Parses a message whose {@code bytes} fields point into the array it was parsed from
 * instead of each being copied out of it. Only for an array nothing else will write to:
 * one just read off the wire or returned fresh by RocksDB.
 */
public final class AliasingParser {
    private AliasingParser() {
    }

    public static <T extends MessageLite> T parse(Parser<T> parser, byte[] bytes)
            throws InvalidProtocolBufferException {
        CodedInputStream input = CodedInputStream.newInstance(bytes);
        input.enableAliasing(true);
        input.setSizeLimit(Integer.MAX_VALUE);
        T message = parser.parseFrom(input);
        input.checkLastTagWas(0);
        return message;
    }
}
