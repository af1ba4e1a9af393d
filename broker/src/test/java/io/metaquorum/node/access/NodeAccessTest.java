package io.metaquorum.node.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.authorizer.Decision;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.MetadataProvenance;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a node asks before it reads any ACL, and what it writes on the audit log. */
class NodeAccessTest {
    private static final Principal NODE = Principal.user("CN=node-4");
    private static final Caller ALICE = new Caller(Principal.user("alice"), "10.0.0.7");
    private static final Caller ROOT = new Caller(Principal.user("root"), "10.0.0.7");
    private final List<Decision> audited = new ArrayList<>();
    private final NodeAccess access = NodeAccess.enabled(new AuthorizerSettings(
            Set.of(NODE.toString(), ROOT.principal().toString()), false), audited::add);

    private static MetadataImage at(long offset) {
        MetadataImage empty = MetadataImage.EMPTY;
        return new MetadataImage(new MetadataProvenance(offset, 1), empty.features(), empty.cluster(),
                empty.topics(), empty.configs(), empty.acls(), empty.scram());
    }

    @Test
    void beforeTheFirstImageOnlySuperUsersAreAdmitted() {
        assertEquals(ErrorCode.AUTHORIZER_NOT_READY, access.admit(MetadataImage.EMPTY, ALICE, -1).get().code());
        assertEquals(Optional.empty(), access.admit(MetadataImage.EMPTY, ROOT, -1));
        assertEquals(Optional.empty(), access.admit(at(0), ALICE, -1));
    }

    @Test
    void anImageBehindTheCallersLastAclChangeIsNotReadyForIt() {
        Optional<ApiError> behind = access.admit(at(41), ALICE, 42);
        assertEquals(ErrorCode.AUTHORIZER_NOT_READY, behind.get().code());
        assertTrue(behind.get().message().contains("offset 41") && behind.get().message().contains("offset 42"),
                behind.get().message());
        assertEquals(Optional.empty(), access.admit(at(42), ALICE, 42));
        assertEquals(ErrorCode.AUTHORIZER_NOT_READY, access.admit(at(41), ROOT, 42).get().code(),
                "a super user too reads what it wrote");
    }

    @Test
    void aForwardedRequestNeedsClusterActionOfTheForwardingNode() {
        assertEquals(Optional.empty(), access.admit(at(5), ALICE.via(NODE), -1));
        Optional<ApiError> refused = access.admit(at(5), ALICE.via(Principal.user("CN=rogue")), -1);
        assertEquals(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, refused.get().code());
        assertEquals("User:CN=rogue", audited.get(0).request().principal());
        assertEquals(AclOperation.CLUSTER_ACTION, audited.get(0).request().operation());
    }

    @Test
    void denialsAreAuditedUnlessTheCallerSaysQuietly() {
        assertFalse(access.allows(at(5), ALICE, AclOperation.READ, ResourceType.TOPIC, "orders", false));
        assertEquals(0, audited.size());
        assertFalse(access.allows(at(5), ALICE, AclOperation.READ, ResourceType.TOPIC, "orders", true));
        assertEquals(1, audited.size());
        assertEquals("DENIED User:alice READ TOPIC orders from 10.0.0.7: no ACL allows it (default deny)",
                audited.get(0).explain());
        assertTrue(access.allows(at(5), ROOT, AclOperation.READ, ResourceType.TOPIC, "orders", true));
        assertEquals(1, audited.size(), "an allow is not audited");
    }

    @Test
    void disabledItAdmitsAndAllowsEverythingAndLogsNothing() {
        NodeAccess off = NodeAccess.DISABLED;
        assertEquals(Optional.empty(), off.admit(MetadataImage.EMPTY, ALICE.via(Principal.user("CN=rogue")), 99));
        assertTrue(off.allows(MetadataImage.EMPTY, ALICE, AclOperation.ALTER, ResourceType.CLUSTER, "kafka-cluster",
                true));
    }
}
