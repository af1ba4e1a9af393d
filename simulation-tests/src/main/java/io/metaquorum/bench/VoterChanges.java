package io.metaquorum.bench;

import io.grpc.ChannelCredentials;
import io.grpc.StatusRuntimeException;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.AddVoterResponse;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.NodeEndpoint;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.protocol.ReplicaState;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.protocol.VotersRecord;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * AddVoter and RemoveVoter as an operator's tool sends them, for the membership benchmark: the
 * leader is found through DescribeQuorum on the bootstrap controllers, and a request refused
 * because the leader moved or another change is still pending is sent again until
 * {@link FailoverBench#STEP_TIMEOUT_MS} passes. The connection to the leader stays open between
 * calls ({@link #connectToLeader}), so a timed change is the request's round trip, not a
 * connection set-up.
 */
final class VoterChanges implements AutoCloseable {
    private static final long CALL_TIMEOUT_MS = 30_000;
    private static final long RETRY_PAUSE_MS = 20;

    /** A voter: its node id, directory id and listener. */
    record Voter(int id, Uuid directoryId, HostPort listener) {
        String directoryBase64() {
            return TopicIds.toBase64(directoryId);
        }
    }

    private final List<HostPort> bootstrap;
    private final ChannelCredentials credentials;
    /** The leader's connection, while it is believed to lead; null otherwise. */
    private QuorumClient leaderClient;
    private HostPort leaderAddress;

    VoterChanges(List<HostPort> bootstrap, ChannelCredentials credentials) {
        if (bootstrap.isEmpty()) {
            throw new IllegalArgumentException("--bootstrap-controller needs at least one HOST:PORT");
        }
        this.bootstrap = List.copyOf(bootstrap);
        this.credentials = credentials;
    }

    /** The leader's view and where the leader listens, as the first bootstrap controller that knows says. */
    private record LeaderView(DescribeQuorumPartitionResponse partition, HostPort leader, List<NodeEndpoint> nodes) {
    }

    private Optional<LeaderView> leaderView() {
        for (HostPort controller : bootstrap) {
            try (QuorumClient client = new QuorumClient(controller.toAddress(), CALL_TIMEOUT_MS, credentials)) {
                DescribeQuorumResponse answer = client.describeMetadataQuorum();
                if (answer.getErrorCode() != ErrorCode.NONE || answer.getTopicsCount() != 1) {
                    continue;
                }
                DescribeQuorumPartitionResponse partition = answer.getTopics(0).getPartitions(0);
                int leaderId = partition.getLeaderId();
                if (partition.getErrorCode() != ErrorCode.NONE || leaderId < 0) {
                    continue;
                }
                Optional<HostPort> leader = answer.getNodesList().stream().filter(n -> n.getNodeId() == leaderId)
                        .findFirst().map(n -> new HostPort(n.getHost(), n.getPort()));
                // A node does not list itself among the nodes it reaches: it is the one asked.
                HostPort leaderAddress = leader.orElse(controller);
                try (QuorumClient atLeader = new QuorumClient(leaderAddress.toAddress(), CALL_TIMEOUT_MS,
                        credentials)) {
                    DescribeQuorumResponse own = atLeader.describeMetadataQuorum();
                    if (own.getErrorCode() == ErrorCode.NONE && own.getTopicsCount() == 1
                            && own.getTopics(0).getPartitions(0).getLeaderId() == leaderId) {
                        return Optional.of(new LeaderView(own.getTopics(0).getPartitions(0), leaderAddress,
                                answer.getNodesList()));
                    }
                }
            } catch (StatusRuntimeException unreachable) {
                // Try the next controller.
            }
        }
        return Optional.empty();
    }

    private LeaderView awaitLeaderView() {
        long deadline = FailoverBench.stepDeadline();
        while (System.nanoTime() < deadline) {
            Optional<LeaderView> view = leaderView();
            if (view.isPresent()) {
                return view.get();
            }
            pauseBeforeRetry();
        }
        throw new IllegalStateException("no controller named a leader within " + FailoverBench.STEP_TIMEOUT_MS
                + " ms");
    }

    /** The leader now, as a voter, and the epoch it leads. */
    record Leading(Voter voter, int epoch) {
    }

    Leading leader() {
        LeaderView view = awaitLeaderView();
        int id = view.partition().getLeaderId();
        ReplicaState state = view.partition().getCurrentVotersList().stream().filter(v -> v.getReplicaId() == id)
                .findFirst().orElseThrow(() -> new IllegalStateException("the leader " + id + " is not a voter"));
        return new Leading(new Voter(id, state.getReplicaDirectoryId(), view.leader()),
                view.partition().getLeaderEpoch());
    }

    /** Every controller the leader's view names, with its listener (the leader's own included). */
    Map<Integer, InetSocketAddress> controllerAddresses() {
        LeaderView view = awaitLeaderView();
        Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
        view.nodes().forEach(n -> addresses.put(n.getNodeId(), new InetSocketAddress(n.getHost(), n.getPort())));
        addresses.put(view.partition().getLeaderId(), view.leader().toAddress());
        return addresses;
    }

    /** A voter other than the leader, with the listener the leader's view names for it. */
    Voter someFollower() {
        LeaderView view = awaitLeaderView();
        for (ReplicaState voter : view.partition().getCurrentVotersList()) {
            if (voter.getReplicaId() == view.partition().getLeaderId()) {
                continue;
            }
            if (voter.getReplicaDirectoryId().equals(TopicIds.ZERO)) {
                throw new IllegalStateException("the voters have no directory ids (static controller.quorum.voters): "
                        + "format the controllers with --initial-controllers");
            }
            Optional<HostPort> listener = listenerOf(voter.getReplicaId(), view);
            if (listener.isPresent()) {
                return new Voter(voter.getReplicaId(), voter.getReplicaDirectoryId(), listener.get());
            }
        }
        throw new IllegalStateException("no follower voter with a known listener in " + view.partition());
    }

    private static Optional<HostPort> listenerOf(int id, LeaderView view) {
        return view.nodes().stream().filter(n -> n.getNodeId() == id).findFirst()
                .map(n -> new HostPort(n.getHost(), n.getPort()));
    }

    /** RemoveVoter of {@code voter}, sent to the leader until it commits. */
    void remove(Voter voter) {
        RemoveVoterRequest request = RemoveVoterRequest.newBuilder().setVoterId(voter.id())
                .setVoterDirectoryId(voter.directoryId()).build();
        untilCommitted("RemoveVoter of " + voter.id(), leader -> {
            RemoveVoterResponse answer = leader.removeVoter(request);
            return new Answer(answer.getErrorCode(), answer.getErrorMessage());
        });
    }

    /** AddVoter of {@code voter}, an observer caught up with the leader, sent until it commits. */
    void add(Voter voter) {
        AddVoterRequest request = AddVoterRequest.newBuilder().setVoterId(voter.id())
                .setVoterDirectoryId(voter.directoryId()).setTimeoutMs((int) CALL_TIMEOUT_MS)
                .addListeners(VotersRecord.Endpoint.newBuilder().setName("CONTROLLER")
                        .setHost(voter.listener().host()).setPort(voter.listener().port())).build();
        untilCommitted("AddVoter of " + voter.id(), leader -> {
            AddVoterResponse answer = leader.addVoter(request);
            return new Answer(answer.getErrorCode(), answer.getErrorMessage());
        });
    }

    /** Waits until the leader reports {@code voter} among the voters, holding its high watermark. */
    void awaitVoterCaughtUp(Voter voter) {
        long deadline = FailoverBench.stepDeadline();
        while (System.nanoTime() < deadline) {
            connectToLeader();
            try {
                DescribeQuorumResponse answer = leaderClient.describeMetadataQuorum();
                if (answer.getErrorCode() == ErrorCode.NONE && answer.getTopicsCount() == 1) {
                    DescribeQuorumPartitionResponse partition = answer.getTopics(0).getPartitions(0);
                    if (partition.getErrorCode() != ErrorCode.NONE) {
                        forgetLeader();
                    } else if (partition.getCurrentVotersList().stream().anyMatch(v -> v.getReplicaId() == voter.id()
                            && v.getLogEndOffset() >= partition.getHighWatermark())) {
                        return;
                    }
                }
            } catch (StatusRuntimeException e) {
                forgetLeader();
            }
            FailoverBench.pause();
        }
        throw new IllegalStateException("voter " + voter.id() + " did not reach the high watermark within "
                + FailoverBench.STEP_TIMEOUT_MS + " ms");
    }

    private record Answer(ErrorCode code, String message) {
    }

    @FunctionalInterface
    private interface Change {
        Answer sendTo(QuorumClient leader);
    }

    /** Opens the connection to the leader now, if none is open, so the next change does not pay for it. */
    void connectToLeader() {
        if (leaderClient != null) {
            return;
        }
        LeaderView view = awaitLeaderView();
        leaderAddress = view.leader();
        leaderClient = new QuorumClient(leaderAddress.toAddress(), CALL_TIMEOUT_MS, credentials);
    }

    private void forgetLeader() {
        if (leaderClient != null) {
            leaderClient.close();
        }
        leaderClient = null;
        leaderAddress = null;
    }

    /** Sends {@code change} to the leader again while it is refused for a reason that passes. */
    private void untilCommitted(String what, Change change) {
        long deadline = FailoverBench.stepDeadline();
        Answer last = null;
        while (System.nanoTime() < deadline) {
            connectToLeader();
            try {
                last = change.sendTo(leaderClient);
            } catch (StatusRuntimeException e) {
                last = new Answer(ErrorCode.UNKNOWN_SERVER_ERROR, e.toString());
            }
            if (last.code() == ErrorCode.NONE) {
                return;
            }
            if (last.code() != ErrorCode.NOT_LEADER_OR_FOLLOWER && last.code() != ErrorCode.REQUEST_TIMED_OUT
                    && last.code() != ErrorCode.UNKNOWN_SERVER_ERROR) {
                throw new IllegalStateException(what + " refused: " + last.code() + " " + last.message());
            }
            if (last.code() != ErrorCode.REQUEST_TIMED_OUT) {
                forgetLeader();
            }
            pauseBeforeRetry();
        }
        throw new IllegalStateException(what + " did not commit within " + FailoverBench.STEP_TIMEOUT_MS
                + " ms; last answer " + last);
    }

    @Override
    public void close() {
        forgetLeader();
    }

    private static void pauseBeforeRetry() {
        try {
            TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
