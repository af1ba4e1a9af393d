package io.metaquorum.sim.system.invariant;

import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.linearizability.Operation;
import io.metaquorum.protocol.ErrorCode;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every acknowledged topic write is in the committed log: a create answered NONE (not
 * validate-only) has the TopicRecord of the id it answered, under its name; a delete answered
 * NONE has the RemoveTopicRecord of the id it answered. A create whose id was hidden from its
 * caller (no DESCRIBE_CONFIGS on the topic) needs a committed TopicRecord of its name. Ids are unique
 * ({@link TopicIdReuseCheck}), so each is reflected exactly once. Cheap and direct where the
 * linearizability search is costly: it catches a controller that answers before the commit.
 * Fed every committed metadata record in log order; judged as each answer reaches its client
 * (a controller answers a write once its records committed, and the checkers' log is fed by
 * the first node to commit, so they are there already) and over the whole history at the end.
 */
public final class AcknowledgedWritesCheck {
    public static final String NAME = "acknowledged-write-committed";

    private final TreeMap<String, String> createdNames = new TreeMap<>();
    private final TreeSet<String> removedIds = new TreeSet<>();

    public void observe(MetadataRecord record, long offset) {
        if (record.hasTopic()) {
            createdNames.put(TopicIds.toBase64(record.getTopic().getTopicId()), record.getTopic().getName());
        } else if (record.hasRemoveTopic()) {
            removedIds.add(TopicIds.toBase64(record.getRemoveTopic().getTopicId()));
        }
    }

    /** Judges every definite answer of {@code history}; returns how many acknowledged writes it checked. */
    public int requireReflected(List<Operation<AdminInput, AdminOutput>> history) {
        int checked = 0;
        for (Operation<AdminInput, AdminOutput> op : history) {
            if (!(op.output() instanceof AdminOutput.WriteResult result) || result.code() != ErrorCode.NONE) {
                continue;
            }
            if (op.input() instanceof AdminInput.CreateTopic create && !create.validateOnly()) {
                checked++;
                if (result.topicId() == null) {
                    if (!createdNames.containsValue(create.topic())) {
                        throw new CheckFailure(NAME, "create of '" + create.topic() + "' by client " + op.clientId()
                                + " answered at " + op.returnMs() + " ms (its id hidden from the caller), but no "
                                + "committed TopicRecord has that name");
                    }
                } else if (!create.topic().equals(createdNames.get(result.topicId()))) {
                    throw new CheckFailure(NAME, "create of '" + create.topic() + "' by client " + op.clientId()
                            + " answered at " + op.returnMs() + " ms with id " + result.topicId()
                            + ", which no committed TopicRecord holds" + (createdNames.containsKey(result.topicId())
                            ? " for that name" : ""));
                }
            } else if (op.input() instanceof AdminInput.DeleteTopic delete) {
                checked++;
                if (!removedIds.contains(result.topicId())) {
                    throw new CheckFailure(NAME, "delete of '" + delete.topic() + "' by client " + op.clientId()
                            + " answered at " + op.returnMs() + " ms for id " + result.topicId()
                            + ", which no committed RemoveTopicRecord removes");
                }
            }
        }
        return checked;
    }
}
