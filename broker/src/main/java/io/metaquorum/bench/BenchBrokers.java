package io.metaquorum.bench;

import io.metaquorum.bench.grpc.BrokerLifecycleCalls;
import io.metaquorum.client.AdminClient;
import io.metaquorum.protocol.DescribedBroker;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.server.HostPort;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The brokers an admin workload needs, until the broker runtime exists: a real client of the
 * broker RPCs (broker.proto) that registers ids {@code 4..3+n} through the bootstrap node
 * (forwarded to the active controller) and heartbeats each every 500 ms claiming a metadata
 * offset far ahead, so the controller unfences them; a broker told its epoch is stale or that
 * it is not registered registers again. The incarnation id is fixed per broker id, so a later
 * run on the same cluster takes the registration over instead of being refused as a duplicate.
 */
final class BenchBrokers implements AutoCloseable {
    static final int FIRST_BROKER_ID = 4;
    private static final long HEARTBEAT_MS = 500;
    private static final long METADATA_OFFSET_CLAIMED = Long.MAX_VALUE / 2;

    private final BrokerLifecycleCalls calls;
    private final TreeMap<Integer, Long> epochs = new TreeMap<>();
    private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "bench-broker-heartbeats");
        thread.setDaemon(true);
        return thread;
    });
    private int next;

    BenchBrokers(List<HostPort> nodes) {
        this.calls = new BrokerLifecycleCalls(nodes);
    }

    /** The broker ids a workload registers: {@code 4 .. 3 + count}. */
    static List<Integer> ids(int count) {
        return java.util.stream.IntStream.range(FIRST_BROKER_ID, FIRST_BROKER_ID + count).boxed().toList();
    }

    /** Registers {@code ids} and keeps them heartbeating until closed. */
    void start(List<Integer> ids) {
        synchronized (this) {
            for (int id : ids) {
                epochs.put(id, -1L);
            }
        }
        heartbeats.scheduleWithFixedDelay(this::beatAll, 0, HEARTBEAT_MS, TimeUnit.MILLISECONDS);
    }

    /** Waits until DescribeCluster shows every registered broker unfenced. */
    void awaitUnfenced(AdminClient admin, long timeoutMs) throws InterruptedException {
        Set<Integer> wanted;
        synchronized (this) {
            wanted = new TreeSet<>(epochs.keySet());
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        Set<Integer> unfenced = new TreeSet<>();
        while (System.nanoTime() < deadline) {
            unfenced.clear();
            for (DescribedBroker broker : admin.describeCluster(timeoutMs).getBrokersList()) {
                if (!broker.getFenced()) {
                    unfenced.add(broker.getBrokerId());
                }
            }
            if (unfenced.containsAll(wanted)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("brokers " + wanted + " not all unfenced after " + timeoutMs
                + " ms (unfenced: " + unfenced + "); is the cluster up?");
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

    /** One heartbeat (or registration); returns the epoch to use next time (-1: register). */
    private long beat(int id, long epoch) {
        if (epoch < 0) {
            long registered = calls.register(next, id, TopicIds.uuid(0x6d712d62656e6368L, id), 29000 + id);
            if (registered < 0) {
                next++;
            }
            return registered;
        }
        return switch (calls.heartbeat(next, id, epoch, METADATA_OFFSET_CLAIMED)) {
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
        calls.close();
    }
}
