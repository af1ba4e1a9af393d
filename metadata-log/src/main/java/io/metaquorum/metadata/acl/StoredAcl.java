package io.metaquorum.metadata.acl;

import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.Uuid;
import java.util.Comparator;

/** An ACL as the log holds it: the binding and the id its AccessControlEntryRecord gave it. */
public record StoredAcl(Uuid id, AclBinding binding) {
    /** {@link AclBinding#LISTING_ORDER}, then the id (equal bindings have one id; this only makes the order total). */
    public static final Comparator<StoredAcl> LISTING_ORDER = Comparator
            .comparing(StoredAcl::binding, AclBinding.LISTING_ORDER)
            .thenComparingLong(a -> a.id().getMostSignificantBits())
            .thenComparingLong(a -> a.id().getLeastSignificantBits());

    public static StoredAcl fromRecord(AccessControlEntryRecord record) {
        return new StoredAcl(record.getId(), AclBinding.fromRecord(record));
    }
}
