package io.metaquorum.security.grpc;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager that serves the key store as it is on disk now ({@link ReloadingStore}). An
 * alias carries the generation it was chosen from, so a handshake that picked its alias just
 * before a reload still gets the chain and key of that same generation.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {
    private final ReloadingStore<X509ExtendedKeyManager> store;
    /** The newest generation handed out, and the one before it (for handshakes that chose from it). */
    private ReloadingStore.Generation<X509ExtendedKeyManager> latest;
    private ReloadingStore.Generation<X509ExtendedKeyManager> previous;

    ReloadingKeyManager(ReloadingStore<X509ExtendedKeyManager> store) {
        this.store = store;
        this.latest = store.current();
        this.previous = latest;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        ReloadingStore.Generation<X509ExtendedKeyManager> generation = now();
        return tag(generation, generation.value().chooseEngineServerAlias(keyType, issuers, engine));
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        ReloadingStore.Generation<X509ExtendedKeyManager> generation = now();
        return tag(generation, generation.value().chooseEngineClientAlias(keyTypes, issuers, engine));
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        ReloadingStore.Generation<X509ExtendedKeyManager> generation = now();
        return tag(generation, generation.value().chooseServerAlias(keyType, issuers, socket));
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        ReloadingStore.Generation<X509ExtendedKeyManager> generation = now();
        return tag(generation, generation.value().chooseClientAlias(keyTypes, issuers, socket));
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        ReloadingStore.Generation<X509ExtendedKeyManager> generation = now();
        return tagAll(generation, generation.value().getServerAliases(keyType, issuers));
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        ReloadingStore.Generation<X509ExtendedKeyManager> generation = now();
        return tagAll(generation, generation.value().getClientAliases(keyType, issuers));
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        X509ExtendedKeyManager manager = managerOf(alias);
        return manager == null ? null : manager.getCertificateChain(untag(alias));
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        X509ExtendedKeyManager manager = managerOf(alias);
        return manager == null ? null : manager.getPrivateKey(untag(alias));
    }

    private synchronized ReloadingStore.Generation<X509ExtendedKeyManager> now() {
        ReloadingStore.Generation<X509ExtendedKeyManager> generation = store.current();
        if (generation.number() != latest.number()) {
            previous = latest;
            latest = generation;
        }
        return generation;
    }

    private synchronized X509ExtendedKeyManager managerOf(String alias) {
        int slash = alias == null ? -1 : alias.indexOf('/');
        if (slash < 2 || alias.charAt(0) != 'g') {
            return null;
        }
        int number;
        try {
            number = Integer.parseInt(alias.substring(1, slash));
        } catch (NumberFormatException e) {
            return null;
        }
        if (latest.number() == number) {
            return latest.value();
        }
        return previous.number() == number ? previous.value() : null;
    }

    private static String tag(ReloadingStore.Generation<?> generation, String alias) {
        return alias == null ? null : "g" + generation.number() + "/" + alias;
    }

    private static String[] tagAll(ReloadingStore.Generation<?> generation, String[] aliases) {
        if (aliases == null) {
            return null;
        }
        String[] tagged = new String[aliases.length];
        for (int i = 0; i < aliases.length; i++) {
            tagged[i] = tag(generation, aliases[i]);
        }
        return tagged;
    }

    private static String untag(String alias) {
        return alias.substring(alias.indexOf('/') + 1);
    }
}
