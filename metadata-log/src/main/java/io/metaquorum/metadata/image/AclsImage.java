package io.metaquorum.metadata.image;

import io.metaquorum.metadata.acl.AclBindingFilter;
import io.metaquorum.metadata.acl.StoredAcl;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.vavr.collection.HashMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * ACL entries by id (Kafka's {@code AclsImage}); the entry is the record that added it. The
 * {@link AclIndex} beside them is what authorization decisions read; replay keeps both in step.
 *
 * <p>Equality is the entries' alone: two images with the same entries are equal, and the
 * index, a function of the entries, is left out of it.
 */
public record AclsImage(HashMap<UuidKey, AccessControlEntryRecord> byId, AclIndex index) {
    public static final AclsImage EMPTY = new AclsImage(HashMap.empty(), AclIndex.EMPTY);

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

    /** Adds an entry replay has checked ({@code AclReplay}): its id is new and its codes are valid. */
    AclsImage withEntry(AccessControlEntryRecord entry) {
        return new AclsImage(byId.put(UuidKey.of(entry.getId()), entry), index.with(AclEntry.of(entry)));
    }

    /** Removes the entry with {@code id}, which replay has checked exists. */
    AclsImage withoutEntry(UuidKey id) {
        AclEntry entry = AclEntry.of(byId.get(id).get());
        return new AclsImage(byId.remove(id), index.without(entry));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AclsImage other && byId.equals(other.byId);
    }

    @Override
    public int hashCode() {
        return byId.hashCode();
    }

    @Override
    public String toString() {
        return "AclsImage[byId=" + byId + "]";
    }
}
