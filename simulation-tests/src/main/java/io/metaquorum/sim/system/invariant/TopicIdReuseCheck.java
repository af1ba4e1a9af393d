package io.metaquorum.sim.system.invariant;

import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.sim.check.CheckFailure;
import java.util.TreeMap;

/**
 * Topic ids are never reused (KIP-516): over the committed log, a TopicRecord never carries an
 * id that an earlier TopicRecord carried, whether that topic still exists or was deleted.
 * Brokers tell a re-created topic's directories from the old ones' by id alone, so a reused id
 * would make a stray look live. Fed every committed metadata record in log order.
 */
public final class TopicIdReuseCheck {
    public static final String NAME = "topic-id-never-reused";

    /** Each id ever created, with the name and offset of its TopicRecord. */
    private final TreeMap<UuidKey, String> created = new TreeMap<>();

    public void observe(MetadataRecord record, long offset) {
        if (!record.hasTopic()) {
            return;
        }
        UuidKey id = UuidKey.of(record.getTopic().getTopicId());
        String here = "'" + record.getTopic().getName() + "' at offset " + offset;
        String earlier = created.putIfAbsent(id, here);
        if (earlier != null) {
            throw new CheckFailure(NAME, "topic id " + TopicIds.toBase64(id.toUuid()) + " created for " + here
                    + " was already created for " + earlier);
        }
    }

    public int idsSeen() {
        return created.size();
    }
}
