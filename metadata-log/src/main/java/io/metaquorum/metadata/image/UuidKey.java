package io.metaquorum.metadata.image;

import io.metaquorum.protocol.Uuid;

/**
 * A topic or ACL id as a map key. The protobuf {@link Uuid} is not used as a key: its hash code
 * mixes in the descriptor's identity hash, so hash-ordered structures keyed by it would
 * differ between two JVMs.
 */
public record UuidKey(long most, long least) implements Comparable<UuidKey> {
    public static UuidKey of(Uuid id) {
        return new UuidKey(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    public Uuid toUuid() {
        return Uuid.newBuilder().setMostSignificantBits(most).setLeastSignificantBits(least).build();
    }

    @Override
    public int compareTo(UuidKey o) {
        int c = Long.compare(most, o.most);
        return c != 0 ? c : Long.compare(least, o.least);
    }
}
