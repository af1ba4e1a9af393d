package io.metaquorum.server.kafka;

import io.grpc.ChannelCredentials;
import io.metaquorum.node.kafka.QuorumDescriptions;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.DescribeQuorumTopicResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.NodeEndpoint;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import io.metaquorum.server.admin.ControllerAddresses;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link QuorumDescriptions} in the server: asks the raft leader this node knows for its
 * DescribeQuorum answer over raft's gRPC service (as {@code mq-metadata quorum} and the status
 * page do; the leader may be this node), on a thread of its own so the Kafka listener's threads
 * never block. A leader that answers NOT_LEADER_OR_FOLLOWER naming a newer one is followed
 * once. No leader known, no answer within the timeout, or a queue already full: the answer is
 * NOT_LEADER_OR_FOLLOWER with the leader this node knows, which Kafka's client retries.
 *
 * <p>One connection per controller, opened when first needed and kept, replaced when the
 * controller's address changes; used only on the asking thread. At most
 * {@link #PENDING_MAX} questions wait.
 */
public final class RaftLeaderQuorum implements QuorumDescriptions, AutoCloseable {
    static final int PENDING_MAX = 64;
    private static final Logger LOG = LoggerFactory.getLogger(RaftLeaderQuorum.class);

    private final IntSupplier knownLeaderId;
    private final Supplier<List<Integer>> voterIds;
    private final ControllerAddresses addresses;
    private final ChannelCredentials credentials;
    private final long timeoutMs;
    private final ThreadPoolExecutor asker;
    /** Asking thread only. */
    private final Map<Integer, Client> clients = new TreeMap<>();

    private record Client(InetSocketAddress address, QuorumClient client) {
    }

    /**
     * @param knownLeaderId the raft leader this node knows, -1 when none
     * @param voterIds      the voters in force, whose addresses the answer lists
     * @param addresses     where each controller listens
     * @param timeoutMs     how long one question to a leader may take
     */
    public RaftLeaderQuorum(IntSupplier knownLeaderId, Supplier<List<Integer>> voterIds, ControllerAddresses addresses,
                            ChannelCredentials credentials, long timeoutMs) {
        this.knownLeaderId = knownLeaderId;
        this.voterIds = voterIds;
        this.addresses = addresses;
        this.credentials = credentials;
        this.timeoutMs = timeoutMs;
        this.asker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(PENDING_MAX),
                task -> {
                    Thread thread = new Thread(task, "kafka-describe-quorum");
                    thread.setDaemon(true);
                    return thread;
                });
    }

    @Override
    public void describeLeader(Consumer<DescribeQuorumResponse> reply) {
        try {
            asker.execute(() -> reply.accept(withNodes(ask())));
        } catch (RejectedExecutionException e) {
            reply.accept(withNodes(notLeader(knownLeaderId.getAsInt(), 0)));
        }
    }

    private DescribeQuorumResponse ask() {
        int leader = knownLeaderId.getAsInt();
        int epoch = 0;
        for (int hop = 0; hop < 2 && leader >= 0; hop++) {
            Optional<DescribeQuorumResponse> answer = askNode(leader);
            if (answer.isEmpty()) {
                break;
            }
            DescribeQuorumResponse response = answer.get();
            if (response.getErrorCode() != ErrorCode.NONE || response.getTopicsCount() != 1
                    || response.getTopics(0).getPartitionsCount() != 1) {
                break;
            }
            DescribeQuorumPartitionResponse partition = response.getTopics(0).getPartitions(0);
            if (partition.getErrorCode() == ErrorCode.NONE) {
                return response;
            }
            epoch = partition.getLeaderEpoch();
            if (partition.getLeaderId() < 0 || partition.getLeaderId() == leader) {
                break;
            }
            leader = partition.getLeaderId();
        }
        return notLeader(leader, epoch);
    }

    private Optional<DescribeQuorumResponse> askNode(int nodeId) {
        Optional<InetSocketAddress> address = addresses.addressOf(nodeId);
        if (address.isEmpty()) {
            return Optional.empty();
        }
        Client client = clients.get(nodeId);
        if (client == null || !client.address().equals(address.get())) {
            if (client != null) {
                client.client().close();
            }
            client = new Client(address.get(), new QuorumClient(address.get(), timeoutMs, credentials));
            clients.put(nodeId, client);
        }
        try {
            return Optional.of(client.client().describeMetadataQuorum());
        } catch (RuntimeException e) {
            LOG.debug("DescribeQuorum to node {} at {} failed: {}", nodeId, address.get(), e.getMessage());
            return Optional.empty();
        }
    }

    private static DescribeQuorumResponse notLeader(int leaderId, int epoch) {
        return DescribeQuorumResponse.newBuilder().setErrorCode(ErrorCode.NONE)
                .addTopics(DescribeQuorumTopicResponse.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(DescribeQuorumPartitionResponse.newBuilder()
                                .setPartitionIndex(TopicIds.METADATA_PARTITION)
                                .setErrorCode(ErrorCode.NOT_LEADER_OR_FOLLOWER).setLeaderId(leaderId)
                                .setLeaderEpoch(epoch).setHighWatermark(-1)))
                .build();
    }

    /** Every voter's address as this node reaches it, the leader included (raft's answer lists only its peers). */
    private DescribeQuorumResponse withNodes(DescribeQuorumResponse response) {
        DescribeQuorumResponse.Builder out = response.toBuilder().clearNodes();
        for (int id : voterIds.get()) {
            addresses.addressOf(id).ifPresent(a -> out.addNodes(NodeEndpoint.newBuilder().setNodeId(id)
                    .setHost(a.getHostString()).setPort(a.getPort())));
        }
        return out.build();
    }

    @Override
    public void close() {
        asker.shutdownNow();
        try {
            asker.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        clients.values().forEach(c -> c.client().close());
        clients.clear();
    }
}
