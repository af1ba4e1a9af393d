package io.metaquorum.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.net.HostPort;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.grpc.RefusalLog;
import io.metaquorum.server.kafka.KafkaListenerServer;
import io.metaquorum.server.kafka.KafkaListenerSettings;
import io.metaquorum.server.kafka.SaslListenerSettings;
import io.metaquorum.server.kafka.ScramCredentialStore;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SASL user is who the authorizer decides for: over a SASL_PLAINTEXT listener serving the
 * node's ACL APIs (authorizer on, {@code super.users=User:admin}), DescribeAcls is answered
 * for {@code admin} and refused CLUSTER_AUTHORIZATION_FAILED for {@code mallory}, each
 * having authenticated with PLAIN.
 */
class KafkaSaslAuthorizationTest {
    private KafkaApisTestNode node;
    private KafkaListenerServer listener;

    @BeforeEach
    void start() {
        node = new KafkaApisTestNode();
        SaslListenerSettings sasl = new SaslListenerSettings(List.of("PLAIN"),
                Map.of("admin", "admin-secret", "mallory", "mallory-secret"), 4096, 100);
        listener = KafkaListenerServer.start(new KafkaListenerSettings("[node 1] ", "SASL_PLAINTEXT",
                new HostPort("127.0.0.1", 0), Optional.empty(), SslPrincipalMapping.parse("DEFAULT"),
                new RefusalLog("[node 1] ", System::nanoTime), 1 << 20, 600_000, Optional.of(sasl)),
                node.apis(), ScramCredentialStore.NONE);
    }

    @AfterEach
    void stop() throws Exception {
        listener.close();
        node.close();
    }

    @Test
    void theSuperUserIsAnsweredAndAnotherUserIsRefused() throws IOException {
        assertEquals(Errors.NONE.code(), describeAclsAs("admin"));
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), describeAclsAs("mallory"));
    }

    private short describeAclsAs(String user) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", listener.boundAddress().port()), 10_000);
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            call(out, in, ApiKeys.SASL_HANDSHAKE, 1, new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                    .setMechanism("PLAIN")).build((short) 1));
            byte[] token = ("\0" + user + "\0" + user + "-secret").getBytes(StandardCharsets.UTF_8);
            SaslAuthenticateResponse authenticated = (SaslAuthenticateResponse) call(out, in,
                    ApiKeys.SASL_AUTHENTICATE, 2, new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
                            .setAuthBytes(token)).build((short) 2));
            assertEquals(Errors.NONE, authenticated.error());
            DescribeAclsResponse described = (DescribeAclsResponse) call(out, in, ApiKeys.DESCRIBE_ACLS, 3,
                    new DescribeAclsRequest.Builder(AclBindingFilter.ANY).build((short) 3));
            return described.data().errorCode();
        }
    }

    private static AbstractResponse call(DataOutputStream out, DataInputStream in, ApiKeys key, int correlationId,
                                         AbstractRequest request) throws IOException {
        RequestHeader header = new RequestHeader(key, request.version(), "sasl-authz-test", correlationId);
        ByteBuffer payload = request.serializeWithHeader(header);
        out.writeInt(payload.remaining());
        out.write(payload.array(), payload.arrayOffset() + payload.position(), payload.remaining());
        out.flush();
        byte[] answer = new byte[in.readInt()];
        in.readFully(answer);
        return AbstractResponse.parseResponse(ByteBuffer.wrap(answer), header);
    }
}
