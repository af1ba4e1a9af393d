package io.metaquorum.sim.system.admin;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.system.admin.AdminInput.AlterConfigs;
import io.metaquorum.sim.system.admin.AdminInput.CreatePartitions;
import io.metaquorum.sim.system.admin.AdminInput.CreateTopic;
import io.metaquorum.sim.system.admin.AdminInput.DeleteTopic;
import io.metaquorum.sim.system.admin.AdminInput.DescribeTopic;
import io.metaquorum.sim.system.admin.AdminInput.NameListed;
import io.metaquorum.sim.system.admin.AdminOutput.Described;
import io.metaquorum.sim.system.admin.AdminOutput.NameListing;
import io.metaquorum.sim.system.admin.AdminOutput.WriteResult;
import io.metaquorum.sim.system.linearizability.SequentialModel;
import java.util.EnumSet;
import java.util.Set;

/**
 * The sequential specification of the admin operations on one topic name, for the
 * linearizability checker (the history is split by name first: {@link AdminPartitioner}).
 *
 * <p>What each answer requires of the state it is linearized at: a created topic did not
 * exist; TOPIC_ALREADY_EXISTS, a successful delete, alter or partition increase, and a
 * describe that found the topic need it to exist (with the id, partition count and configs
 * the describe shows); UNKNOWN_TOPIC_OR_PARTITION needs it absent; INVALID_PARTITIONS needs
 * it to exist with at least the count asked for. The other errors an operation can give
 * ({@link #knows}: invalid names, configs, assignments, counts, name collisions with another
 * topic) are judged by the reference model, not here: such an answer changes nothing and is
 * legal from every state. So is TOPIC_AUTHORIZATION_FAILED, for every write and a describe: a
 * denied entry never reaches the controller (whether the ACLs denied it is judged where the
 * answer is given, {@code AuthorizationCheck}); a denial that took effect anyway shows here as
 * a history no order explains. A code outside that list is legal from no state (and fails the run
 * by name first: {@code AnswerCodeCheck}). A read must not be served from an offset older than
 * a read linearized before it.
 *
 * <p>An unknown answer applies the operation's effect where it could succeed and leaves the
 * state alone elsewhere; "it never took effect" is the checker placing it last.
 */
public final class AdminModel implements SequentialModel<TopicSlot, AdminInput, AdminOutput> {
    /**
     * The codes other than NONE each write may be answered with: those judged by state
     * (TOPIC_ALREADY_EXISTS, UNKNOWN_TOPIC_OR_PARTITION, a growth's INVALID_PARTITIONS), then the
     * refusals that change nothing whatever the state (the reference model judges those).
     */
    private static final Set<ErrorCode> CREATE_CODES = EnumSet.of(ErrorCode.TOPIC_ALREADY_EXISTS,
            ErrorCode.INVALID_TOPIC_EXCEPTION, ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_PARTITIONS,
            ErrorCode.INVALID_REPLICATION_FACTOR, ErrorCode.INVALID_REPLICA_ASSIGNMENT, ErrorCode.INVALID_CONFIG,
            ErrorCode.POLICY_VIOLATION);
    private static final Set<ErrorCode> DELETE_CODES = EnumSet.of(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            ErrorCode.INVALID_REQUEST);
    private static final Set<ErrorCode> GROW_CODES = EnumSet.of(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            ErrorCode.INVALID_PARTITIONS, ErrorCode.INVALID_REPLICATION_FACTOR, ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            ErrorCode.INVALID_REQUEST);
    private static final Set<ErrorCode> ALTER_CODES = EnumSet.of(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            ErrorCode.INVALID_CONFIG, ErrorCode.INVALID_REQUEST, ErrorCode.POLICY_VIOLATION);

    /**
     * Whether {@code output} carries a code this model knows for {@code input}: the codes it
     * judges by state (NONE, TOPIC_ALREADY_EXISTS, UNKNOWN_TOPIC_OR_PARTITION, INVALID_PARTITIONS
     * of a growth) and the refusals that change nothing. A list carries no code.
     */
    public static boolean knows(AdminInput input, AdminOutput output) {
        if (output instanceof WriteResult write) {
            return write.code() == ErrorCode.NONE || write.code() == ErrorCode.TOPIC_AUTHORIZATION_FAILED
                    || writeCodes(input).contains(write.code());
        }
        if (output instanceof Described described) {
            return input instanceof DescribeTopic && (described.code() == ErrorCode.NONE
                    || described.code() == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    || described.code() == ErrorCode.TOPIC_AUTHORIZATION_FAILED);
        }
        return true;
    }

    private static Set<ErrorCode> writeCodes(AdminInput input) {
        if (input instanceof CreateTopic) {
            return CREATE_CODES;
        } else if (input instanceof DeleteTopic) {
            return DELETE_CODES;
        } else if (input instanceof CreatePartitions) {
            return GROW_CODES;
        }
        return input instanceof AlterConfigs ? ALTER_CODES : Set.of();
    }

    @Override
    public TopicSlot initialState() {
        return TopicSlot.ABSENT;
    }

    @Override
    public TopicSlot step(TopicSlot state, AdminInput input, AdminOutput output) {
        if (output != null && !knows(input, output)) {
            return null;
        }
        if (input instanceof CreateTopic create) {
            return create(state, create, (WriteResult) output);
        } else if (input instanceof DeleteTopic) {
            return delete(state, (WriteResult) output);
        } else if (input instanceof CreatePartitions grow) {
            return grow(state, grow, (WriteResult) output);
        } else if (input instanceof AlterConfigs alter) {
            return alter(state, alter, (WriteResult) output);
        } else if (input instanceof DescribeTopic) {
            return describe(state, (Described) output);
        } else if (input instanceof NameListed) {
            return listed(state, (NameListing) output);
        }
        throw new IllegalArgumentException("a list spans topic names; the partitioner projects it onto each name first: "
                + input);
    }

    private static TopicSlot create(TopicSlot state, CreateTopic create, WriteResult output) {
        if (output == null) {
            return state.exists() || create.validateOnly() ? state
                    : state.created(null, create.partitions(), create.configs());
        }
        if (output.code() == ErrorCode.NONE) {
            if (state.exists()) {
                return null;
            }
            return create.validateOnly() ? state : state.created(output.topicId(), create.partitions(), create.configs());
        }
        if (output.code() == ErrorCode.TOPIC_ALREADY_EXISTS) {
            return state.exists() ? state : null;
        }
        return state;
    }

    private static TopicSlot delete(TopicSlot state, WriteResult output) {
        if (output == null) {
            return state.exists() ? state.deleted() : state;
        }
        if (output.code() == ErrorCode.NONE) {
            return state.exists() && state.idMatches(output.topicId()) ? state.deleted() : null;
        }
        if (output.code() == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION) {
            return state.exists() ? null : state;
        }
        return state;
    }

    private static TopicSlot grow(TopicSlot state, CreatePartitions grow, WriteResult output) {
        boolean canGrow = state.exists() && grow.count() > state.partitions();
        if (output == null) {
            return canGrow ? state.withPartitions(grow.count()) : state;
        }
        return switch (output.code()) {
            case NONE -> canGrow ? state.withPartitions(grow.count()) : null;
            case UNKNOWN_TOPIC_OR_PARTITION -> state.exists() ? null : state;
            case INVALID_PARTITIONS -> state.exists() && !canGrow ? state : null;
            default -> state;
        };
    }

    private static TopicSlot alter(TopicSlot state, AlterConfigs alter, WriteResult output) {
        if (output == null) {
            return state.exists() ? state.withChanges(alter.changes()) : state;
        }
        return switch (output.code()) {
            case NONE -> state.exists() ? state.withChanges(alter.changes()) : null;
            case UNKNOWN_TOPIC_OR_PARTITION -> state.exists() ? null : state;
            default -> state;
        };
    }

    private static TopicSlot describe(TopicSlot state, Described output) {
        if (output == null) {
            return state;
        }
        if (output.offset() < state.readFloor()) {
            return null;
        }
        TopicSlot read = state.readAt(output.offset());
        return switch (output.code()) {
            case NONE -> read.exists() && read.idMatches(output.topic().topicId())
                    && read.partitions() == output.topic().partitions() && read.configs().equals(output.topic().configs())
                    ? read.withId(output.topic().topicId()) : null;
            case UNKNOWN_TOPIC_OR_PARTITION -> read.exists() ? null : read;
            default -> state;
        };
    }

    private static TopicSlot listed(TopicSlot state, NameListing output) {
        if (output == null) {
            return state;
        }
        if (output.offset() < state.readFloor()) {
            return null;
        }
        TopicSlot read = state.readAt(output.offset());
        if (output.topicId() == null) {
            return read.exists() ? null : read;
        }
        return read.exists() && read.idMatches(output.topicId()) ? read.withId(output.topicId()) : null;
    }
}
