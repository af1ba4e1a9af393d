package io.metaquorum.server;

import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ServerInterceptor;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.access.AuditLog;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.raft.transport.grpc.TransportSecurity;
import io.metaquorum.security.ClientAuthMode;
import io.metaquorum.security.grpc.IdentityInterceptor;
import io.metaquorum.security.Principal;
import io.metaquorum.security.grpc.RaftAccessInterceptor;
import io.metaquorum.security.grpc.RefusalLog;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.SslSettings;
import io.metaquorum.security.StoreSource;
import io.metaquorum.security.grpc.TlsCredentials;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's {@link TransportSecurity} from its configuration: TLS credentials for an SSL
 * listener (its server, and its channels to the other nodes, which present the same
 * certificate), and on every listener the identity check that names each call's principal.
 */
final class NodeSecurity {
    private static final Logger LOG = LoggerFactory.getLogger(NodeSecurity.class);

    private NodeSecurity() {
    }

    /**
     * The node's authorizer from {@code authorizer.enabled}, {@code super.users} and
     * {@code allow.everyone.if.no.acl.found}.
     */
    static NodeAccess access(ServerConfig config) {
        if (!config.booleanValue(ConfigKeys.AUTHORIZER_ENABLED)) {
            return NodeAccess.DISABLED;
        }
        Set<String> superUsers = new LinkedHashSet<>();
        superUsers(config).forEach(principal -> superUsers.add(principal.toString()));
        return NodeAccess.enabled(new AuthorizerSettings(superUsers,
                config.booleanValue(ConfigKeys.ALLOW_EVERYONE_IF_NO_ACL_FOUND)), AuditLog.SLF4J);
    }

    /**
     * @param access the node's authorizer, which the raft service's calls pass
     *               ({@link RaftAccessInterceptor}) on the image {@code image} returns
     */
    static TransportSecurity of(ServerConfig config, String logPrefix, NodeAccess access,
                                Supplier<MetadataImage> image) {
        Set<Principal> nodePrincipals = superUsers(config);
        ServerInterceptor identity = RaftAccessInterceptor.after(new IdentityInterceptor(
                SslPrincipalMapping.parse((String) config.value(ConfigKeys.SSL_PRINCIPAL_MAPPING_RULES)),
                nodePrincipals, new RefusalLog(logPrefix, System::nanoTime)), new RaftAccessInterceptor(access, image));
        ListenerSpec listener = config.listenerSpec();
        if (listener.protocol() != ListenerSpec.SecurityProtocol.SSL) {
            return new TransportSecurity(listener.protocol().name(), InsecureServerCredentials.create(),
                    InsecureChannelCredentials.create(), identity);
        }
        SslSettings ssl = config.ssl().get();
        ClientAuthMode clientAuth = config.clientAuth();
        if (nodePrincipals.isEmpty()) {
            LOG.warn("{}{} is not set: any client that completes the TLS handshake may forward a request in"
                    + " another principal's name; list the node principals there", logPrefix, ConfigKeys.SUPER_USERS);
        }
        if (clientAuth != ClientAuthMode.REQUIRED) {
            LOG.warn("{}{}={}: clients without a certificate connect as {}", logPrefix, ConfigKeys.SSL_CLIENT_AUTH,
                    clientAuth, Principal.ANONYMOUS);
        }
        TransportSecurity security = new TransportSecurity(listener.protocol().name(),
                TlsCredentials.server(ssl, clientAuth), TlsCredentials.channel(ssl), identity);
        LOG.info("{}listener {} uses TLS {} with client authentication {}; key store {}, trust store {}", logPrefix,
                listener.name(), ssl.protocols(), clientAuth, ssl.keyStore().get().describe(),
                ssl.trustStore().map(StoreSource::describe).orElse("the JDK's"));
        return security;
    }

    /** {@code super.users}: {@code User:CN=node-1;User:admin}, Kafka's form. */
    static Set<Principal> superUsers(ServerConfig config) {
        String text = (String) config.value(ConfigKeys.SUPER_USERS);
        Set<Principal> principals = new LinkedHashSet<>();
        if (text == null) {
            return principals;
        }
        for (String entry : text.split(";")) {
            if (!entry.isBlank()) {
                principals.add(Principal.parse(entry.trim()));
            }
        }
        return principals;
    }
}
