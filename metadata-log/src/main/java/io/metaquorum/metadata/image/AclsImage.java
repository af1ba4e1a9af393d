package io.metaquorum.metadata.image;

import io.metaquorum.metadata.acl.AclBindingFilter;
import io.metaquorum.metadata.acl.StoredAcl;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.vavr.collection.HashMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** ACL entries by id (Kafka's {@code AclsImage}); the entry is the record that added it. */
public record AclsImage(HashMap<UuidKey, AccessControlEntryRecord> byId) {
    public static final AclsImage EMPTY = new AclsImage(HashMap.empty());

    /** The entries sorted by id. */
    public List<AccessControlEntryRecord> sortedById() {
        List<AccessControlEntryRecord> sorted = new ArrayList<>(byId.size());
        byId.values().forEach(sorted::add);
        sorted.sort(Comparator.comparing(e -> UuidKey.of(e.getId())));
        return sorted;
    }

    /** The ACLs {@code filter} matches, in {@link StoredAcl#LISTING_ORDER}: what DescribeAcls answers. */
    public List<StoredAcl> matching(AclBindingFilter filter) {
        List<StoredAcl> matched = new ArrayList<>();
        for (AccessControlEntryRecord record : byId.values()) {
            StoredAcl acl = StoredAcl.fromRecord(record);
            if (filter.matches(acl.binding())) {
                matched.add(acl);
            }
        }
        matched.sort(StoredAcl.LISTING_ORDER);
        return matched;
    }

    AclsImage withEntry(AccessControlEntryRecord entry) {
        return new AclsImage(byId.put(UuidKey.of(entry.getId()), entry));
    }

    AclsImage withoutEntry(UuidKey id) {
        return new AclsImage(byId.remove(id));
    }
}
