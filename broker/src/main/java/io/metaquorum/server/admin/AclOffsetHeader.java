package io.metaquorum.server.admin;

import io.grpc.Context;
import io.grpc.Metadata;
import io.metaquorum.node.admin.CallOrigin;

/**
 * The {@value #HEADER_NAME} gRPC header: the commit offset of the client's last CreateAcls or
 * DeleteAcls, which its later calls carry (a forwarded call too) so that no node authorizes
 * them on an image from before that change. A value that is not a number is ignored, as if
 * absent: it can only ask for an older image than the client already may get.
 */
public final class AclOffsetHeader {
    public static final String HEADER_NAME = "mq-acl-offset";
    public static final Metadata.Key<String> HEADER = Metadata.Key.of(HEADER_NAME, Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<Long> OFFSET = Context.key(HEADER_NAME);

    private AclOffsetHeader() {
    }

    /** Adds the header to {@code headers} when there is an offset to send. */
    public static void write(long aclOffset, Metadata headers) {
        if (aclOffset >= 0) {
            headers.put(HEADER, Long.toString(aclOffset));
        }
    }

    /** {@code context} with the offset the headers carry, or {@code context} itself when none. */
    static Context read(Metadata headers, Context context) {
        String value = headers.get(HEADER);
        if (value == null) {
            return context;
        }
        try {
            return context.withValue(OFFSET, Math.max(CallOrigin.NO_ACL_OFFSET, Long.parseLong(value.trim())));
        } catch (NumberFormatException e) {
            return context;
        }
    }

    /** The offset the call being served carries, {@link CallOrigin#NO_ACL_OFFSET} when none. */
    static long current() {
        Long offset = OFFSET.get();
        return offset == null ? CallOrigin.NO_ACL_OFFSET : offset;
    }
}
