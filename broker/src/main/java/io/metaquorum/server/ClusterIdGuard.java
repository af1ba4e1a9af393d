package io.metaquorum.server;

import com.google.protobuf.Message;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.protocol.BeginQuorumEpochResponse;
import io.metaquorum.protocol.EndQuorumEpochResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.FetchSnapshotResponse;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.transport.Transport.InboundSink;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns peers' INCONSISTENT_CLUSTER_ID answers into a fatal stop of this node, without
 * letting one misconfigured peer stop a healthy quorum.
 *
 * <p>The core refuses requests of another cluster and only logs such answers, retrying.
 * Who is wrong is decided by the majority: once so many voters answered
 * INCONSISTENT_CLUSTER_ID that the voters still agreeing with this node (itself included,
 * if it is one) are fewer than a majority, this node can never take part in its quorum:
 * it was formatted with another cluster id than its peers, and it stops through the fault
 * handler with a line saying so. A healthy node that hears it from a minority of peers
 * logs one ERROR line per such peer and keeps running.
 *
 * <p>Sits between the transport and the driver's sink: {@link #inspect} runs on transport
 * threads, so the state is guarded by this object.
 */
public final class ClusterIdGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterIdGuard.class);

    private final String logPrefix;
    private final String clusterId;
    private final List<Integer> voterIds;
    private final int majority;
    private final FaultHandler faultHandler;
    /** Voters that answered INCONSISTENT_CLUSTER_ID; guarded by {@code this}. */
    private final Set<Integer> disagreeingVoters = new TreeSet<>();

    public ClusterIdGuard(int localId, String clusterId, List<Integer> voterIds, FaultHandler faultHandler) {
        this.logPrefix = "[node " + localId + "] ";
        this.clusterId = clusterId;
        this.voterIds = List.copyOf(voterIds);
        this.majority = voterIds.size() / 2 + 1;
        this.faultHandler = faultHandler;
    }

    /** The sink to give the transport: inspects each message, then passes it on. */
    public InboundSink wrap(InboundSink sink) {
        return message -> {
            inspect(message);
            sink.deliver(message);
        };
    }

    void inspect(RaftMessage message) {
        if (!(message instanceof RaftResponse response)
                || errorCode(response.payload()) != ErrorCode.INCONSISTENT_CLUSTER_ID
                || !voterIds.contains(response.sourceId())) {
            return;
        }
        String fatal = null;
        synchronized (this) {
            if (disagreeingVoters.add(response.sourceId())) {
                LOG.error("{}voter {} answered INCONSISTENT_CLUSTER_ID: it belongs to another cluster than {}",
                        logPrefix, response.sourceId(), clusterId);
                if (voterIds.size() - disagreeingVoters.size() < majority) {
                    fatal = logPrefix + "voters " + disagreeingVoters + " of " + voterIds
                            + " belong to another cluster than this node's cluster.id " + clusterId
                            + " (INCONSISTENT_CLUSTER_ID): this node cannot join their quorum; format its "
                            + "metadata.log.dir with their cluster id";
                }
            }
        }
        if (fatal != null) {
            faultHandler.handleFault(fatal, null);
        }
    }

    /** The top-level error of a Raft response; NONE for payloads that carry none. */
    static ErrorCode errorCode(Message payload) {
        if (payload instanceof VoteResponse vote) {
            return vote.getErrorCode();
        } else if (payload instanceof BeginQuorumEpochResponse begin) {
            return begin.getErrorCode();
        } else if (payload instanceof EndQuorumEpochResponse end) {
            return end.getErrorCode();
        } else if (payload instanceof FetchResponse fetch) {
            return fetch.getErrorCode();
        } else if (payload instanceof FetchSnapshotResponse fetchSnapshot) {
            return fetchSnapshot.getErrorCode();
        }
        return ErrorCode.NONE;
    }
}
