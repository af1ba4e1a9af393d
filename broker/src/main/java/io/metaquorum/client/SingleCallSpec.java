package io.metaquorum.client;

import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.net.HostPort;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A call without per-item results (ListTopics, DescribeCluster, DescribeTopics of every
 * topic) as a batch of one item: only its header decides, and giving up is an
 * {@link AdminException}.
 */
final class SingleCallSpec<P> implements RetryingCall.Spec<String, P, P> {
    static final String ITEM = "*";

    private final BiFunction<HostPort, Long, P> send;
    private final Function<P, AdminResponseHeader> header;

    SingleCallSpec(BiFunction<HostPort, Long, P> send, Function<P, AdminResponseHeader> header) {
        this.send = send;
        this.header = header;
    }

    @Override
    public P send(HostPort node, List<String> items, long attemptTimeoutMs) {
        return send.apply(node, attemptTimeoutMs);
    }

    @Override
    public AdminResponseHeader header(P response) {
        return header.apply(response);
    }

    @Override
    public Map<String, P> results(P response, List<String> sent) {
        return Map.of(ITEM, response);
    }

    @Override
    public String key(String item) {
        return item;
    }

    @Override
    public ErrorCode code(P result) {
        return ErrorCode.NONE;
    }

    @Override
    public String message(P result) {
        return "";
    }

    @Override
    public P failed(String item, ErrorCode code, String message) {
        throw new AdminException(code, message);
    }
}
