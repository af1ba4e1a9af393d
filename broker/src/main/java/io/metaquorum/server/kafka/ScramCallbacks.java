package io.metaquorum.server.kafka;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import org.apache.kafka.common.security.scram.ScramCredentialCallback;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCredentialCallback;

/**
 * Answers Kafka's SCRAM server with the user's stored credential from the
 * {@link ScramCredentialStore}, or none (the exchange then fails as for a wrong password).
 * Delegation tokens are not supported: a client asking for token authentication gets an
 * unsupported callback, which Kafka's server turns into a failed authentication.
 */
final class ScramCallbacks implements CallbackHandler {
    private final String mechanism;
    private final ScramCredentialStore store;

    ScramCallbacks(String mechanism, ScramCredentialStore store) {
        this.mechanism = mechanism;
        this.store = store;
    }

    @Override
    public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
        String user = null;
        for (Callback callback : callbacks) {
            if (callback instanceof NameCallback name) {
                user = name.getDefaultName();
            } else if (callback instanceof DelegationTokenCredentialCallback) {
                throw new UnsupportedCallbackException(callback, "delegation tokens are not supported");
            } else if (callback instanceof ScramCredentialCallback credential) {
                credential.scramCredential(user == null ? null : store.credential(mechanism, user).orElse(null));
            } else {
                throw new UnsupportedCallbackException(callback);
            }
        }
    }
}
