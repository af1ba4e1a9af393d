package io.metaquorum.node.kafka;

import java.util.function.Consumer;
import org.apache.kafka.common.errors.IllegalSaslStateException;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * SaslHandshake and SaslAuthenticate on a SASL listener once the connection has
 * authenticated: the listener runs the exchange itself before that, so a request that gets
 * here comes after it and is answered ILLEGAL_SASL_STATE. Re-authentication (KIP-368) is not
 * supported, and a session never expires, so no well-behaved client sends one.
 */
final class SaslAfterAuthenticationHandler implements KafkaApiHandler {
    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        reply.accept(request.getErrorResponse(new IllegalSaslStateException(request.apiKey()
                + " after the connection authenticated; re-authentication is not supported")));
    }
}
