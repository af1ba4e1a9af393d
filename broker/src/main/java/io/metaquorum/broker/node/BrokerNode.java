package io.metaquorum.broker.node;

import io.metaquorum.broker.lifecycle.BrokerLifecycle;
import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleTimings;
import io.metaquorum.broker.partition.PartitionDirectories;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.RaftListener;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * One broker node as an object graph with no threads, sockets or files of its own, run by
 * {@code mq-server} and by the simulator alike: the {@link MetadataLoader} raft feeds, the
 * {@link BrokerLifecycle} with its calls on the wire ({@link LifecycleSession} over a
 * {@link LifecycleTransport}), the {@link ImageGate} that holds images back until the broker
 * has replayed up to its registration, and the partition directories those images become
 * ({@link PartitionDirectories}). Its ports: the clock, the lifecycle transport, the partition
 * directories (their store inside) and the loader's snapshot scheduler.
 *
 * <p>Single-threaded: every method runs on the node's one thread. The caller hands it raft's
 * images ({@link #onImage}, or {@link #listener()} when raft runs on that thread too), lets
 * transport outcomes arrive on it, and calls {@link #drive} after each event and at the
 * deadline it returned. A new incarnation of the process is a new object.
 */
public final class BrokerNode {
    /**
     * What a broker is configured with.
     *
     * @param clusterId     the cluster this broker belongs to
     * @param brokerId      its node id
     * @param incarnationId drawn anew at every start: a restart is told from a second process
     * @param endpoints     where clients reach it
     * @param rack          its rack, "" for none
     * @param timings       heartbeat interval and retry backoff
     * @param controllerIds the controllers lifecycle calls may go to
     * @param callTimeoutMs the deadline of one lifecycle call
     */
    public record Settings(String clusterId, int brokerId, Uuid incarnationId, List<BrokerEndpoint> endpoints,
                           String rack, LifecycleTimings timings, List<Integer> controllerIds, long callTimeoutMs) {
        public Settings {
            endpoints = List.copyOf(endpoints);
            controllerIds = List.copyOf(controllerIds);
        }
    }

    private final MetadataLoader loader;
    private final BrokerLifecycle lifecycle;
    private final LifecycleSession session;
    private final ImageGate gate = new ImageGate();
    private final PartitionDirectories directories;

    /**
     * @param loader      the node's loader; raft feeds it (through {@link #listener()}, or a
     *                    controller's state machine in combined mode)
     * @param transport   where lifecycle calls go; answers must arrive on the node's thread
     * @param directories where gated images go
     * @param clockMs     the node's clock, read only when a transport outcome arrives
     */
    public BrokerNode(String logPrefix, Settings settings, MetadataLoader loader, LifecycleTransport transport,
                      PartitionDirectories directories, LongSupplier clockMs) {
        this.loader = loader;
        this.lifecycle = new BrokerLifecycle(logPrefix, settings.clusterId(), settings.brokerId(),
                settings.incarnationId(), settings.endpoints(), settings.rack(), settings.timings());
        this.session = new LifecycleSession(lifecycle, transport, settings.controllerIds(), settings.callTimeoutMs(),
                clockMs);
        this.directories = directories;
    }

    /** Raft's state machine for a node whose raft runs on this node's thread: the loader, then {@link #onImage}. */
    public RaftListener listener() {
        return new ImagePublishingListener(loader, loader, this::onImage);
    }

    /**
     * The loader's newest image, with what changed since the one before, published after a
     * commit or a snapshot load.
     */
    public void onImage(ImageUpdate update) {
        gate.offer(update);
    }

    /**
     * Does the work due at {@code nowMs}: fails a lifecycle call whose deadline passed, sends
     * the call the lifecycle wants, lets a caught-up image through to the directories and runs
     * their work if it is the caller's. Returns when the node next needs to run (absolute ms;
     * at or before {@code nowMs} for at once, {@link Long#MAX_VALUE} until the next event).
     */
    public long drive(long nowMs) {
        session.expire(nowMs);
        lifecycle.poll(nowMs, metadataOffset()).ifPresent(call -> session.send(call, nowMs));
        gate.release(lifecycle.brokerEpoch()).ifPresent(directories::onImage);
        long directoriesAtMs = directories.drive(nowMs);
        return Math.min(Math.min(lifecycle.nextDeadlineMs(metadataOffset()), session.deadlineMs()), directoriesAtMs);
    }

    /** SIGTERM: asks the controller to move this broker's leaderships away (see {@link BrokerLifecycle}). */
    public void beginControlledShutdown(long nowMs) {
        lifecycle.beginControlledShutdown(nowMs);
    }

    /** Whether the controller has let the broker go (or it led nothing): the process may exit. */
    public boolean readyToStop() {
        return lifecycle.state() == BrokerState.SHUT_DOWN;
    }

    public BrokerState state() {
        return lifecycle.state();
    }

    /** The epoch of the current registration, -1 while registering. */
    public long brokerEpoch() {
        return lifecycle.brokerEpoch();
    }

    /** Why the broker must stop (a FATAL answer), once one came. */
    public Optional<String> fatalError() {
        return lifecycle.fatalError();
    }

    /** The loader's current image. */
    public MetadataImage image() {
        return loader.image();
    }

    /** The image whose partition directories are all in place, empty before the first complete pass. */
    public Optional<MetadataImage> reconciledImage() {
        return directories.reconciledImage();
    }

    /** The controller the next lifecycle call goes to. */
    public int lifecycleTarget() {
        return session.target();
    }

    private long metadataOffset() {
        return gate.newest().map(MetadataImage::lastCommittedOffset).orElse(-1L);
    }
}
