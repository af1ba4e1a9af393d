package io.metaquorum.metadata.authorizer;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.image.AclsImage;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RemoveAccessControlEntryRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;

/** An ACL as tests write it, with the id it gets, and images built from ACLs by the real replay path. */
record TestAcl(long id, ResourceType type, String name, PatternType pattern, String principal, String host,
               AclOperation operation, PermissionType permission) {

    static TestAcl allow(long id, String principal, AclOperation operation, ResourceType type, PatternType pattern,
                         String name) {
        return new TestAcl(id, type, name, pattern, principal, "*", operation, PermissionType.ALLOW);
    }

    static TestAcl deny(long id, String principal, AclOperation operation, ResourceType type, PatternType pattern,
                        String name) {
        return new TestAcl(id, type, name, pattern, principal, "*", operation, PermissionType.DENY);
    }

    TestAcl from(String newHost) {
        return new TestAcl(id, type, name, pattern, principal, newHost, operation, permission);
    }

    Uuid uuid() {
        return TopicIds.uuid(7, id);
    }

    /** The id as the explanation prints it. */
    String idText() {
        return TopicIds.toBase64(uuid());
    }

    MetadataRecord toRecord() {
        return MetadataRecord.newBuilder().setAccessControlEntry(AccessControlEntryRecord.newBuilder()
                .setId(uuid()).setResourceType(type.code()).setResourceName(name).setPatternType(pattern.code())
                .setPrincipal(principal).setHost(host).setOperation(operation.code())
                .setPermissionType(permission.code())).build();
    }

    MetadataRecord toRemoveRecord() {
        return MetadataRecord.newBuilder().setRemoveAccessControlEntry(
                RemoveAccessControlEntryRecord.newBuilder().setId(uuid())).build();
    }

    /** The ACLs of an image that replayed an add for each of {@code added}, then a remove for each of {@code removed}. */
    static AclsImage image(List<TestAcl> added, List<TestAcl> removed) {
        List<MetadataRecord> records = new ArrayList<>();
        added.forEach(acl -> records.add(acl.toRecord()));
        removed.forEach(acl -> records.add(acl.toRemoveRecord()));
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        for (int i = 0; i < records.size(); i++) {
            delta.replay(records.get(i), i, 1);
        }
        return delta.apply().acls();
    }

    static AclsImage image(TestAcl... acls) {
        return image(List.of(acls), List.of());
    }
}
