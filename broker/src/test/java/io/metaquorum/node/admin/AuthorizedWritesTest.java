package io.metaquorum.node.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.TopicRef;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * DeleteTopics' rights at the node that takes the request: which topics go on to the
 * controller, and what the others are answered. A topic missing from the node's committed image
 * never goes on without DELETE, because the controller's image may hold it, created and not yet
 * committed, and would delete it for a caller who may not.
 */
class AuthorizedWritesTest {
    private static final Principal OPS = Principal.user("ops");
    private static final Principal NOBODY = Principal.user("nobody");
    /** "kept" exists; User:ops may DESCRIBE every topic and DELETE "kept" only. */
    private static final MetadataImage IMAGE = withAcls(DescribeImages.of(Map.of("kept", 1)),
            acl(1, "*", AclOperation.DESCRIBE), acl(2, "kept", AclOperation.DELETE));

    @Test
    void aDescribableTopicMissingFromTheCommittedImageIsAnsweredHereNotForwarded() {
        DeleteTopicsRequest request = byName("missing");
        BitSet denied = AuthorizedWrites.deleteTopics(request, access(OPS));
        assertTrue(denied.get(0), "kept from the controller");
        DeletableTopicResult result = merged(request, denied, OPS);
        assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, result.getErrorCode());
        assertEquals("The topic 'missing' does not exist.", result.getErrorMessage());
    }

    @Test
    void aTopicTheCallerMayNotDescribeIsRefusedWhetherOrNotItExists() {
        for (String name : List.of("missing", "kept")) {
            DeleteTopicsRequest request = byName(name);
            BitSet denied = AuthorizedWrites.deleteTopics(request, access(NOBODY));
            assertTrue(denied.get(0), name);
            assertEquals(ErrorCode.TOPIC_AUTHORIZATION_FAILED, merged(request, denied, NOBODY).getErrorCode(), name);
        }
    }

    @Test
    void anExistingTopicWithDeleteGoesOnToTheController() {
        assertFalse(AuthorizedWrites.deleteTopics(byName("kept"), access(OPS)).get(0));
    }

    @Test
    void anIdNoCommittedTopicHasIsAnsweredHere() {
        DeleteTopicsRequest request = DeleteTopicsRequest.newBuilder()
                .addTopics(TopicRef.newBuilder().setTopicId(TopicIds.uuid(9, 9))).build();
        BitSet denied = AuthorizedWrites.deleteTopics(request, access(OPS));
        assertTrue(denied.get(0));
        DeletableTopicResult result = merged(request, denied, OPS);
        assertEquals(ErrorCode.UNKNOWN_TOPIC_ID, result.getErrorCode());
        assertEquals("", result.getName());
    }

    private RequestAccess access(Principal principal) {
        return new RequestAccess(NodeAccess.enabled(new AuthorizerSettings(Set.of(), false), denial -> { }), IMAGE,
                new Caller(principal, "127.0.0.1"));
    }

    private DeletableTopicResult merged(DeleteTopicsRequest request, BitSet denied, Principal principal) {
        DeleteTopicsResponse answer = AuthorizedWrites.merged(request, denied, DeleteTopicsResponse.getDefaultInstance(),
                access(principal));
        assertEquals(1, answer.getTopicsCount());
        return answer.getTopics(0);
    }

    private static DeleteTopicsRequest byName(String name) {
        return DeleteTopicsRequest.newBuilder().addTopics(TopicRef.newBuilder().setName(name)).build();
    }

    private static MetadataRecord acl(int id, String topic, AclOperation operation) {
        return MetadataRecord.newBuilder().setAccessControlEntry(AccessControlEntryRecord.newBuilder()
                .setId(TopicIds.uuid(7, id)).setResourceType(ResourceType.TOPIC.code()).setResourceName(topic)
                .setPatternType(PatternType.LITERAL.code()).setPrincipal("User:ops").setHost("*")
                .setOperation(operation.code()).setPermissionType(PermissionType.ALLOW.code())).build();
    }

    private static MetadataImage withAcls(MetadataImage image, MetadataRecord... acls) {
        MetadataDelta delta = new MetadataDelta(image);
        long offset = image.lastCommittedOffset();
        for (MetadataRecord acl : acls) {
            delta.replay(acl, ++offset, 1);
        }
        return delta.apply();
    }
}
