package io.metaquorum.metadata.controller;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.acl.AclBinding;
import io.metaquorum.metadata.acl.AclBindingFilter;
import io.metaquorum.metadata.controller.AclControlManager.CreateAclsResult;
import io.metaquorum.metadata.controller.AclControlManager.DeleteAclsResult;
import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatResponse;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerResponse;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResult;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsResult;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import io.metaquorum.metadata.controller.ReplicationControlManager.DeleteTopicResult;
import io.metaquorum.metadata.controller.ScramControlManager.AlterResult;
import io.metaquorum.metadata.controller.ScramControlManager.Deletion;
import io.metaquorum.metadata.controller.ScramControlManager.Upsertion;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quorum controller (Kafka's {@code QuorumController}): the active one turns requests
 * into records through its managers, appends each operation's records as one atomic append
 * pinned to its epoch, and answers once they are accepted or committed; standbys follow the
 * committed image and can lead at once.
 *
 * <p>Deterministic and single-threaded: whoever drives it (the controller's event loop in a
 * server, the simulator) calls it from one thread, with the time as an input, and passes
 * back what raft did with each append. Its decision state ({@link ControllerManagers}) is the
 * committed image plus the records appended in its current leadership; when that leadership
 * ends, it goes back to the committed image and fails what was still waiting.
 *
 * <p>Invariants: it appends only while active, always at {@code nextOffset}. Raft's leader
 * appends nothing of its own after the leader-change record without the controller: it hands
 * its control records (a VotersRecord) to the controller, which appends them in its own order
 * ({@link #handleControlRecords}), so the controller knows each offset before raft confirms it;
 * a mismatch renounces the leadership and resigns raft's with it.
 */
public final class QuorumController {
    private static final Logger LOG = LoggerFactory.getLogger(QuorumController.class);
    private static final ApiError NOT_CONTROLLER =
            ApiError.of(ErrorCode.NOT_CONTROLLER, "This node is not the active controller.");

    private final String logPrefix;
    private final ControllerConfig config;
    private final AppendSink appends;
    private final ControllerManagers managers;
    private final ReplicationControlManager replication;
    private final ClusterControlManager cluster;
    private final ConfigurationControlManager configs;
    private final AclControlManager acls;
    private final ScramControlManager scram;
    private final PendingWrites pending = new PendingWrites();
    private MetadataImage committed = MetadataImage.EMPTY;
    /** The epoch this controller is active in, -1 while standby. */
    private int activeEpoch = -1;
    /** The offset of the next record this controller appends; meaningful while active. */
    private long nextOffset = -1;
    private long nextNoOpMs = Long.MAX_VALUE;

    /** @param logPrefix node context for log lines, e.g. {@code "[node 1] "} */
    public QuorumController(String logPrefix, ControllerConfig config, RandomGenerator random, AppendSink appends) {
        this.logPrefix = logPrefix;
        this.config = config;
        this.appends = appends;
        this.managers = new ControllerManagers(MetadataImage.EMPTY, config.settings(), config.policy(), random);
        this.replication = managers.replication();
        this.cluster = managers.cluster();
        this.configs = managers.configuration();
        this.acls = managers.acls();
        this.scram = managers.scram();
    }

    public boolean isActive() {
        return activeEpoch >= 0;
    }

    public int activeEpoch() {
        return activeEpoch;
    }

    /** The image decisions are made on: committed, plus what this leadership appended. */
    public MetadataImage decisionImage() {
        return managers.image();
    }

    public MetadataImage committedImage() {
        return committed;
    }

    // ---- what raft reports, in the order it reported it ----

    /** The committed log (or a loaded snapshot) now ends at {@code image}. */
    public void handleCommitted(MetadataImage image) {
        committed = image;
        if (!isActive()) {
            managers.revertTo(image);
        } else if (image.lastCommittedOffset() >= nextOffset) {
            // Records this controller did not append committed at offsets it counted as its own:
            // another leader's. Its offsets are wrong from here on, so this leadership is over,
            // raft's included: the quorum elects again and the next active controller counts from
            // the log as it is.
            int epoch = activeEpoch;
            renounce();
            appends.resign(epoch);
            return;
        }
        pending.committedUpTo(image.lastCommittedOffset());
    }

    /**
     * Raft made this node the leader of {@code epoch}; its leader-change record is at
     * {@code epochStartOffset} and already in the committed image.
     */
    public void handleBecomeLeader(int epoch, long epochStartOffset, long nowMs) {
        Invariants.check(committed.lastCommittedOffset() >= epochStartOffset,
                "controller becomes active in epoch %d at %d before replaying up to it (at %d)", epoch,
                epochStartOffset, committed.lastCommittedOffset());
        activeEpoch = epoch;
        nextOffset = epochStartOffset + 1;
        managers.revertTo(committed);
        cluster.onBecomeActive(nowMs);
        nextNoOpMs = nowMs + config.idleIntervalMs();
        LOG.info("{}controller active in epoch {}, appending from offset {}", logPrefix, epoch, nextOffset);
        if (committed.features().level(MetadataRecordCodec.METADATA_VERSION_FEATURE).isEmpty()) {
            // Nothing was ever bootstrapped: every earlier record is replayed, so none will be. The format's
            // records (SCRAM credentials) go in the same atomic append, so they land exactly once.
            List<MetadataRecord> bootstrap = new ArrayList<>();
            bootstrap.add(MetadataRecordCodec.featureLevel(MetadataRecordCodec.METADATA_VERSION_FEATURE,
                    MetadataRecordCodec.METADATA_VERSION_LEVEL));
            bootstrap.addAll(config.bootstrapRecords());
            long offset = append(bootstrap);
            LOG.info("{}appending the bootstrap record {}={} and {} bootstrap records from the format at offset {} "
                    + "in epoch {}", logPrefix, MetadataRecordCodec.METADATA_VERSION_FEATURE,
                    MetadataRecordCodec.METADATA_VERSION_LEVEL, config.bootstrapRecords().size(), offset, epoch);
        }
        List<MetadataRecord> unfinished = cluster.unfinishedFencing().records();
        if (!unfinished.isEmpty()) {
            LOG.info("{}finishing a fencing cut short by the last failover: {} partition changes", logPrefix,
                    unfinished.size());
            appendInBatches(unfinished);
        }
    }

    /** Raft no longer lets this node lead {@code epoch}. */
    public void handleResign(int epoch) {
        if (epoch == activeEpoch) {
            renounce();
        }
    }

    /**
     * Raft's leader has control records of its own for {@code epoch} (the VotersRecord of a voter
     * change): they go behind this controller's appends so far, and its next ones after them. A
     * controller no longer active in that epoch drops them; raft forgets them when the epoch ends,
     * which the controller's renouncing brings about.
     */
    public void handleControlRecords(int epoch, List<ByteString> records) {
        if (epoch != activeEpoch) {
            return;
        }
        nextOffset += records.size();
        appends.appendControl(epoch, nextOffset - 1, records);
    }

    /** Raft queued the append that ends at {@code lastOffset} in {@code epoch}. */
    public void handleAppendAccepted(int epoch, long lastOffset) {
        if (epoch == activeEpoch) {
            pending.accepted(lastOffset);
        }
    }

    /** Raft refused an append of {@code epoch}: its records never land, so this leadership cannot go on. */
    public void handleAppendRefused(int epoch) {
        if (epoch == activeEpoch) {
            renounce();
            appends.resign(epoch);
        }
    }

    private void renounce() {
        LOG.info("{}controller no longer active (epoch {}); {} responses fail with NOT_CONTROLLER", logPrefix,
                activeEpoch, pending.size());
        activeEpoch = -1;
        nextOffset = -1;
        nextNoOpMs = Long.MAX_VALUE;
        managers.revertTo(committed);
        pending.failAll(NOT_CONTROLLER);
    }

    // ---- timers ----

    /** Fences brokers whose session expired, writes the idle NoOp, times out waits; returns the next deadline. */
    public long poll(long nowMs) {
        pending.expire(nowMs);
        if (!isActive()) {
            return pending.nextDeadlineMs();
        }
        ControllerResult<List<Integer>> fencing = cluster.fenceOneExpiredBroker(nowMs);
        if (!fencing.records().isEmpty()) {
            appendInBatches(fencing.records());
        }
        if (nowMs >= nextNoOpMs) {
            append(List.of(MetadataRecordCodec.noOp()));
            nextNoOpMs = nowMs + config.idleIntervalMs();
        }
        return Math.min(Math.min(nextNoOpMs, cluster.nextSessionExpiryMs()), pending.nextDeadlineMs());
    }

    // ---- operations ----

    /** {@code timeoutMs > 0}: answer once committed (or REQUEST_TIMED_OUT); otherwise once appended. */
    public void createTopics(CreateTopicsRequest request, int timeoutMs, long nowMs,
                             ResponseSink<CreateTopicsResponse> sink) {
        write(replication.createTopics(request), timeoutMs > 0, deadline(timeoutMs, nowMs), sink,
                ControllerResponses::createTopicsFailed);
    }

    public void deleteTopics(List<String> names, List<Uuid> ids, int timeoutMs, long nowMs,
                             ResponseSink<List<DeleteTopicResult>> sink) {
        write(replication.deleteTopics(names, ids), timeoutMs > 0, deadline(timeoutMs, nowMs), sink,
                ControllerResponses::deleteTopicsFailed);
    }

    public void createPartitions(List<CreatePartitionsTopic> topics, boolean validateOnly, int timeoutMs, long nowMs,
                                 ResponseSink<List<CreatePartitionsResult>> sink) {
        write(replication.createPartitions(topics, validateOnly), timeoutMs > 0, deadline(timeoutMs, nowMs), sink,
                ControllerResponses::createPartitionsFailed);
    }

    public void incrementalAlterConfigs(List<AlterConfigsResource> resources, boolean validateOnly, long nowMs,
                                        ResponseSink<List<AlterConfigsResult>> sink) {
        write(configs.incrementalAlterConfigs(resources, validateOnly), true, Long.MAX_VALUE, sink,
                ControllerResponses::alterConfigsFailed);
    }

    /**
     * Answered once committed. The ids of the new ACLs come from the offsets their records land
     * at, so a standby (which has no such offset) answers NOT_CONTROLLER before deciding.
     */
    public void createAcls(List<AclBinding> creations, long nowMs, ResponseSink<CreateAclsResult> sink) {
        if (!isActive()) {
            sink.complete(ControllerResponses.createAclsFailed(new CreateAclsResult(
                    creations.stream().map(c -> ApiError.NONE).toList(), AclControlManager.NO_COMMIT),
                    NOT_CONTROLLER, true));
            return;
        }
        write(acls.createAcls(creations, nextOffset), true, Long.MAX_VALUE, sink,
                ControllerResponses::createAclsFailed);
    }

    /** Answered once committed. */
    public void deleteAcls(List<AclBindingFilter> filters, long nowMs, ResponseSink<DeleteAclsResult> sink) {
        if (!isActive()) {
            sink.complete(ControllerResponses.deleteAclsFailed(new DeleteAclsResult(
                    filters.stream().map(f -> AclControlManager.DeleteAclsFilterResult.failed(ApiError.NONE))
                            .toList(), AclControlManager.NO_COMMIT), NOT_CONTROLLER, true));
            return;
        }
        write(acls.deleteAcls(filters, nextOffset), true, Long.MAX_VALUE, sink,
                ControllerResponses::deleteAclsFailed);
    }

    /** AlterUserScramCredentials; answered once committed, with the offset of the commit. */
    public void alterScramCredentials(List<Deletion> deletions, List<Upsertion> upsertions, long nowMs,
                                      ResponseSink<AlterResult> sink) {
        if (!isActive()) {
            List<ScramControlManager.UserResult> all = new ArrayList<>();
            deletions.forEach(d -> all.add(new ScramControlManager.UserResult(d.name(), ApiError.NONE)));
            upsertions.forEach(u -> all.add(new ScramControlManager.UserResult(u.name(), ApiError.NONE)));
            sink.complete(ControllerResponses.alterScramFailed(new AlterResult(all.stream().distinct().toList(),
                    AclControlManager.NO_COMMIT), NOT_CONTROLLER, true));
            return;
        }
        write(scram.alterCredentials(deletions, upsertions, nextOffset), true, Long.MAX_VALUE, sink,
                ControllerResponses::alterScramFailed);
    }

    /** The broker epoch is the offset its registration record lands at. Answered once committed. */
    public void registerBroker(RegisterBrokerRequest request, long nowMs, ResponseSink<RegisterBrokerResponse> sink) {
        if (!isActive()) {
            sink.complete(new RegisterBrokerResponse(NOT_CONTROLLER, -1));
            return;
        }
        write(cluster.registerBroker(request, nextOffset, nowMs), true, Long.MAX_VALUE, sink,
                (response, error, all) -> new RegisterBrokerResponse(error, -1));
    }

    public void heartbeat(HeartbeatRequest request, long nowMs, ResponseSink<HeartbeatResponse> sink) {
        if (!isActive()) {
            sink.complete(HeartbeatResponse.failed(NOT_CONTROLLER));
            return;
        }
        write(cluster.heartbeat(request, nowMs), true, Long.MAX_VALUE, sink,
                (response, error, all) -> HeartbeatResponse.failed(error));
    }

    /**
     * Applies and appends the records of {@code result} and answers {@code sink} once they are
     * committed ({@code awaitCommit}; REQUEST_TIMED_OUT at {@code deadlineMs}) or accepted by
     * raft; a standby answers NOT_CONTROLLER for every entry.
     */
    private <T> void write(ControllerResult<T> result, boolean awaitCommit, long deadlineMs, ResponseSink<T> sink,
                           Failure<T> failure) {
        if (!isActive()) {
            sink.complete(failure.apply(result.response(), NOT_CONTROLLER, true));
            return;
        }
        if (result.records().isEmpty()) {
            long uncommittedEnd = nextOffset - 1;
            if (!awaitCommit || uncommittedEnd <= committed.lastCommittedOffset()) {
                sink.complete(result.response());
                return;
            }
            // Decided on state not yet committed (a topic another request is creating): answered once that
            // commits, as Kafka answers a write that writes nothing; else a failover could lose what it saw.
            pending.add(uncommittedEnd, true, deadlineMs, () -> sink.complete(result.response()),
                    error -> sink.complete(failure.apply(result.response(), error, true)));
            return;
        }
        if (result.atomic() && result.records().size() > config.appendRecordsMax()) {
            sink.complete(failure.apply(result.response(), ApiError.of(ErrorCode.INVALID_REQUEST,
                    "The request would write " + result.records().size() + " records; one request may write at most "
                            + config.appendRecordsMax() + ". Split it."), false));
            return;
        }
        long lastOffset = result.atomic() ? append(result.records()) : appendInBatches(result.records());
        pending.add(lastOffset, awaitCommit, deadlineMs, () -> sink.complete(result.response()),
                error -> sink.complete(failure.apply(result.response(), error, false)));
    }

    /** A decided response turned into a failure with {@code error} ({@link ControllerResponses}). */
    @FunctionalInterface
    private interface Failure<T> {
        T apply(T response, ApiError error, boolean all);
    }

    private static long deadline(int timeoutMs, long nowMs) {
        return timeoutMs > 0 ? nowMs + timeoutMs : Long.MAX_VALUE;
    }

    /** Replays {@code records} into the decision state and hands them to raft; returns the last offset. */
    private long append(List<MetadataRecord> records) {
        long baseOffset = nextOffset;
        managers.replay(records, baseOffset, activeEpoch);
        nextOffset = baseOffset + records.size();
        appends.append(activeEpoch, nextOffset - 1, records);
        return nextOffset - 1;
    }

    /**
     * Appends non-atomic {@code records} in order, as atomic appends of at most
     * {@code appendRecordsMax} each; returns the last offset.
     */
    private long appendInBatches(List<MetadataRecord> records) {
        long lastOffset = -1;
        for (int from = 0; from < records.size(); from += config.appendRecordsMax()) {
            lastOffset = append(records.subList(from, Math.min(records.size(), from + config.appendRecordsMax())));
        }
        return lastOffset;
    }

    /** Responses waiting on their records; for tests and status. */
    public int pendingResponses() {
        return pending.size();
    }
}
