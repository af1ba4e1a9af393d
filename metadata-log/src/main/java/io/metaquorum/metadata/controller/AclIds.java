package io.metaquorum.metadata.controller;

import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;

/**
 * The id of an ACL is a function of the offset its AccessControlEntryRecord lands at. Kafka
 * draws a random id; a random id would make two replays of one seed differ, and the log
 * already gives every record a unique number. The controller knows that offset before raft
 * confirms it (it appends at {@code nextOffset}, see {@link QuorumController}).
 *
 * <p>Unique: the low 64 bits are a bijection of the offset (SplitMix64's finalizer: xor-shifts
 * and multiplications by odd constants, each invertible), so two offsets never share an id,
 * and a committed offset holds one record for good. A record appended but lost in a failover
 * gave its id to nothing that survives, so the next record at that offset may take it. Never
 * zero (the low half mixes offset + 1 >= 1, and only 0 mixes to 0), and the top bit of the
 * high half is clear, so the printed form never starts with '-' (as Kafka avoids for topic
 * ids on command lines).
 */
final class AclIds {
    private static final long HIGH_SALT = 0x6d71_6163_6c73_0001L;

    private AclIds() {
    }

    /** The id of the ACL whose record is at {@code offset} (>= 0). */
    static Uuid atOffset(long offset) {
        long least = mix(offset + 1);
        long most = mix(offset ^ HIGH_SALT) & Long.MAX_VALUE;
        return TopicIds.uuid(most, least);
    }

    /** SplitMix64's output function: a bijection on 64-bit values with mix(0) = 0. */
    static long mix(long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d0_49bb_1331_11ebL;
        return z ^ (z >>> 31);
    }
}
