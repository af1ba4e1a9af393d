package io.metaquorum.server.kafka;

import io.metaquorum.common.invariant.Invariants;
import java.nio.ByteBuffer;
import java.util.Optional;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;

/**
 * The SASL authentication of one connection of a SASL_PLAINTEXT or SASL_SSL listener, as
 * Kafka's protocol has it (KIP-43 for the handshake, KIP-152 for SaslAuthenticate): each
 * frame read before the client has authenticated goes through {@link #receive}, which says
 * what the connection does with it ({@link Step}). No other request reaches the APIs before
 * {@link #complete()}.
 *
 * <p>Transitions: HANDSHAKE (ApiVersions, any number, or SaslHandshake) -&gt; AUTHENTICATE
 * (SaslAuthenticate requests, or after a v0 handshake the mechanism's raw tokens, as many as
 * the mechanism needs) -&gt; COMPLETE. A mechanism not enabled, a failed exchange or any other
 * request moves to FAILED, where nothing more is read. There is no way back from COMPLETE:
 * re-authentication (KIP-368) is not supported, so a session never expires.
 *
 * <p>Thread use: the connection's event loop only.
 */
final class SaslExchange {
    /** What the connection does with one frame read before authentication completes. */
    sealed interface Step permits Pass, Answer, RawAnswer, Refuse {
    }

    /** An ApiVersions request: served by the APIs like any request, for an anonymous caller. */
    record Pass(RequestFrames.Parsed parsed) implements Step {
    }

    /** Answer {@code response}; if {@code fails}, then close the connection after the failure delay. */
    record Answer(RequestHeader header, AbstractResponse response, boolean fails) implements Step {
    }

    /** After a v0 handshake: write {@code token} raw, size-prefixed; on a failure there is none, and the connection closes after the delay. */
    record RawAnswer(Optional<byte[]> token, boolean fails) implements Step {
    }

    /** Not allowed before authentication: the connection closes at once, logged. */
    record Refuse(String kind, String reason) implements Step {
    }

    private enum State { HANDSHAKE, AUTHENTICATE, COMPLETE, FAILED }

    private final SaslListenerSettings settings;
    private final ScramCredentialStore scram;
    private final String serverName;
    private State state = State.HANDSHAKE;
    /** Invariant: set in AUTHENTICATE, null in every other state. */
    private SaslServer server;
    /** Whether the handshake was v0: the tokens then come raw, not in SaslAuthenticate requests. */
    private boolean rawTokens;
    private String mechanism;
    private String authorizationId;

    SaslExchange(SaslListenerSettings settings, ScramCredentialStore scram, String serverName) {
        this.settings = settings;
        this.scram = scram;
        this.serverName = serverName;
    }

    /** Whether the client has authenticated; its identity is then {@link #authorizationId()}. */
    boolean complete() {
        return state == State.COMPLETE;
    }

    /** Whether authentication failed: the connection reads nothing more and is closing. */
    boolean failed() {
        return state == State.FAILED;
    }

    /** The identity the mechanism authenticated. */
    String authorizationId() {
        Invariants.check(complete(), "SASL authorization id asked before authentication completed");
        return authorizationId;
    }

    /** The mechanism chosen in the handshake, for log lines; null before it. */
    String mechanism() {
        return mechanism;
    }

    /** What to do with {@code frame}, the payload of one frame read before authentication completed. */
    Step receive(ByteBuffer frame) {
        Invariants.check(state == State.HANDSHAKE || state == State.AUTHENTICATE, "SASL frame in state %s", state);
        if (state == State.AUTHENTICATE && rawTokens) {
            byte[] token = new byte[frame.remaining()];
            frame.get(token);
            return rawToken(token);
        }
        if (frame.remaining() < Short.BYTES) {
            return refuse("request header", "a frame of " + frame.remaining() + " bytes holds no header");
        }
        short apiKeyId = frame.getShort(frame.position());
        ApiKeys expected = state == State.HANDSHAKE ? ApiKeys.SASL_HANDSHAKE : ApiKeys.SASL_AUTHENTICATE;
        boolean allowed = apiKeyId == expected.id || state == State.HANDSHAKE && apiKeyId == ApiKeys.API_VERSIONS.id;
        if (!allowed) {
            // Refused before the body is parsed, so an unauthenticated client reaches no other schema.
            String type = ApiKeys.hasId(apiKeyId) ? ApiKeys.forId(apiKeyId).toString() : "unknown key " + apiKeyId;
            return refuse("unauthenticated request", "Unexpected Kafka request of type " + type + " during SASL "
                    + (state == State.HANDSHAKE ? "handshake" : "authentication"));
        }
        RequestFrames.Parsed parsed = RequestFrames.parse(frame);
        if (parsed instanceof RequestFrames.Refused refused) {
            return refuse(refused.kind(), refused.reason());
        }
        if (parsed instanceof RequestFrames.Request request && request.request() instanceof SaslHandshakeRequest hs) {
            return handshake(request.header(), hs);
        }
        if (parsed instanceof RequestFrames.Request request
                && request.request() instanceof SaslAuthenticateRequest authenticate) {
            return authenticate(request.header(), authenticate);
        }
        return new Pass(parsed);
    }

    private Step handshake(RequestHeader header, SaslHandshakeRequest request) {
        String asked = request.data().mechanism();
        SaslHandshakeResponseData answer = new SaslHandshakeResponseData().setMechanisms(settings.mechanisms());
        if (!settings.mechanisms().contains(asked)) {
            state = State.FAILED;
            return new Answer(header, new SaslHandshakeResponse(
                    answer.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code())), true);
        }
        try {
            server = SaslServers.create(asked, settings, scram, serverName);
        } catch (SaslException e) {
            return refuse("SASL handshake", "cannot start mechanism " + asked + ": " + e.getMessage());
        }
        mechanism = asked;
        rawTokens = header.apiVersion() == 0;
        state = State.AUTHENTICATE;
        return new Answer(header, new SaslHandshakeResponse(answer.setErrorCode(Errors.NONE.code())), false);
    }

    private Step authenticate(RequestHeader header, SaslAuthenticateRequest request) {
        SaslAuthenticateResponseData answer = new SaslAuthenticateResponseData();
        try {
            byte[] token = server.evaluateResponse(request.data().authBytes().clone());
            maybeComplete();
            // session_lifetime_ms 0: the session does not expire, there is no re-authentication.
            return new Answer(header, new SaslAuthenticateResponse(answer.setErrorCode(Errors.NONE.code())
                    .setAuthBytes(token == null ? new byte[0] : token).setSessionLifetimeMs(0)), false);
        } catch (SaslAuthenticationException e) {
            fail();
            return new Answer(header, new SaslAuthenticateResponse(answer
                    .setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code()).setErrorMessage(e.getMessage())), true);
        } catch (SaslException | RuntimeException e) {
            // The mechanism's own message may say whether the user exists; the client gets a general one.
            fail();
            return new Answer(header, new SaslAuthenticateResponse(answer
                    .setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code()).setErrorMessage(failureMessage())), true);
        }
    }

    private Step rawToken(byte[] token) {
        try {
            byte[] answer = server.evaluateResponse(token);
            maybeComplete();
            return new RawAnswer(Optional.of(answer == null ? new byte[0] : answer), false);
        } catch (SaslException | RuntimeException e) {
            fail();
            return new RawAnswer(Optional.empty(), true);
        }
    }

    /** The message a client gets when the mechanism failed without one meant for clients. */
    String failureMessage() {
        return "Authentication failed during authentication due to invalid credentials with SASL mechanism "
                + mechanism;
    }

    private void maybeComplete() throws SaslException {
        if (server.isComplete()) {
            authorizationId = server.getAuthorizationID();
            server.dispose();
            server = null;
            state = State.COMPLETE;
        }
    }

    private void fail() {
        if (server != null) {
            try {
                server.dispose();
            } catch (SaslException e) {
                // Nothing held that matters: the connection closes.
            }
            server = null;
        }
        state = State.FAILED;
    }

    private Step refuse(String kind, String reason) {
        fail();
        return new Refuse(kind, reason);
    }
}
