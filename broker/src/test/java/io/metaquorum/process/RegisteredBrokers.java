package io.metaquorum.process;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.net.HostPort;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Brokers as the controllers see them, through the broker RPCs (a client, until the broker
 * runtime exists): each registers through any controller (forwarded to the active one) and
 * heartbeats every 500 ms with its epoch, re-registering when told its epoch is stale or it
 * is unknown (after a failover its session is fresh, its registration is kept).
 */
final class RegisteredBrokers implements AutoCloseable {
    private final List<HostPort> controllers;
    private final List<ManagedChannel> channels;
    private final TreeMap<Integer, Long> epochs = new TreeMap<>();
    private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
    private final long metadataOffsetClaimed = Long.MAX_VALUE / 2;
    private int next;

    RegisteredBrokers(List<HostPort> controllers) {
        this.controllers = List.copyOf(controllers);
        this.channels = controllers.stream().map(c -> (ManagedChannel) ManagedChannelBuilder
                .forAddress(c.host(), c.port()).usePlaintext().build()).toList();
    }

    /** Registers brokers {@code ids} and keeps them heartbeating until closed. */
    void start(List<Integer> ids) {
        for (int id : ids) {
            epochs.put(id, -1L);
        }
        heartbeats.scheduleWithFixedDelay(this::beatAll, 0, 500, TimeUnit.MILLISECONDS);
    }

    private synchronized void beatAll() {
        for (Map.Entry<Integer, Long> broker : epochs.entrySet()) {
            try {
                broker.setValue(beat(broker.getKey(), broker.getValue()));
            } catch (RuntimeException e) {
                next++;
            }
        }
    }

    /** One heartbeat (or registration); returns the epoch to use next time. */
    private long beat(int id, long epoch) {
        var stub = BrokerLifecycleServiceGrpc.newBlockingStub(channels.get(next % channels.size()))
                .withDeadlineAfter(2, TimeUnit.SECONDS);
        if (epoch < 0) {
            BrokerRegistrationResponse registered = stub.registerBroker(BrokerRegistrationRequest.newBuilder()
                    .setBrokerId(id).setIncarnationId(TopicIds.uuid(99, id))
                    .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1")
                            .setPort(29000 + id)).build());
            if (registered.getErrorCode() != ErrorCode.NONE) {
                next++;
                return -1;
            }
            return registered.getBrokerEpoch();
        }
        BrokerHeartbeatResponse answer = stub.brokerHeartbeat(BrokerHeartbeatRequest.newBuilder().setBrokerId(id)
                .setBrokerEpoch(epoch).setCurrentMetadataOffset(metadataOffsetClaimed).build());
        return switch (answer.getErrorCode()) {
            case NONE -> epoch;
            case STALE_BROKER_EPOCH, BROKER_ID_NOT_REGISTERED -> -1;
            default -> {
                next++;
                yield epoch;
            }
        };
    }

    @Override
    public void close() {
        heartbeats.shutdownNow();
        channels.forEach(ManagedChannel::shutdownNow);
    }
}
