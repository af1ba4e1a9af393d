package io.metaquorum.client;

import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.net.HostPort;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A batch call's {@link RetryingCall.Spec} put together from the accessors of its messages. */
final class BatchSpec<I, R, P> implements RetryingCall.Spec<I, R, P> {
    interface Sender<I, P> {
        P send(HostPort node, List<I> items, long attemptTimeoutMs);
    }

    interface Failed<I, R> {
        R failed(I item, ErrorCode code, String message);
    }

    private final Sender<I, P> sender;
    private final Function<P, AdminResponseHeader> header;
    private final Function<P, List<R>> results;
    private final Function<I, String> itemKey;
    private final Function<R, List<String>> resultKeys;
    private final Function<R, ErrorCode> code;
    private final Function<R, String> message;
    private final Failed<I, R> failed;

    /** {@code resultKeys}: every key a result answers (a deleted topic: its name and its id). */
    BatchSpec(Sender<I, P> sender, Function<P, AdminResponseHeader> header, Function<P, List<R>> results,
            Function<I, String> itemKey, Function<R, List<String>> resultKeys, Function<R, ErrorCode> code,
            Function<R, String> message, Failed<I, R> failed) {
        this.sender = sender;
        this.header = header;
        this.results = results;
        this.itemKey = itemKey;
        this.resultKeys = resultKeys;
        this.code = code;
        this.message = message;
        this.failed = failed;
    }

    @Override
    public P send(HostPort node, List<I> items, long attemptTimeoutMs) {
        return sender.send(node, items, attemptTimeoutMs);
    }

    @Override
    public AdminResponseHeader header(P response) {
        return header.apply(response);
    }

    @Override
    public Map<String, R> results(P response, List<I> sent) {
        Map<String, R> byKey = new LinkedHashMap<>();
        for (R result : results.apply(response)) {
            for (String key : resultKeys.apply(result)) {
                byKey.putIfAbsent(key, result);
            }
        }
        return byKey;
    }

    @Override
    public String key(I item) {
        return itemKey.apply(item);
    }

    @Override
    public ErrorCode code(R result) {
        return code.apply(result);
    }

    @Override
    public String message(R result) {
        return message.apply(result);
    }

    @Override
    public R failed(I item, ErrorCode errorCode, String errorMessage) {
        return failed.failed(item, errorCode, errorMessage);
    }
}
