package io.metaquorum.raft.driver;

import com.google.protobuf.ByteString;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.Time;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.raft.AppendResult;
import io.metaquorum.raft.core.RaftCore;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.loop.DriverLoop;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.storage.QuorumStateStore;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.transport.Transport;
import io.metaquorum.raft.transport.Transport.InboundSink;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link RaftNode}: one thread that owns the {@link RaftCore}, its
 * {@link RaftLog} and {@link QuorumStateStore}, and runs the deterministic {@link DriverLoop}
 * (the sequence the simulator runs too) pass after pass: the pass drains the queues below,
 * polls, sends, flushes (here, on this thread) and publishes the status; this class adds
 * only the thread, the queues, parking until the pass's deadline or until something is
 * queued, and fault handling.
 * One {@code flush} per pass is the group commit of docs/architecture.md §4: whatever queued while a
 * sync ran goes out together in the next one, so an idle quorum answers at once (nothing
 * waits for a timer: a queued message unparks the thread) and a busy one batches without
 * an artificial linger.
 *
 * <p>Queues (jctools, many producers, this thread the only consumer) and their bounds:
 * <ul>
 *   <li>inbound messages, unbounded in structure but bounded by policy: responses and
 *       failures answer requests the core itself has in flight (a bounded number), so they
 *       are always queued; inbound requests beyond {@link #INBOUND_REQUESTS_QUEUED_MAX} are
 *       dropped, and their senders see a timeout, as with any overloaded peer;</li>
 *   <li>tasks ({@link #append}, {@link #execute}), at most {@link #TASKS_QUEUED_MAX}: beyond
 *       it an append answers {@link AppendResult.Status#QUEUE_FULL} and execute throws
 *       {@link RejectedExecutionException}.</li>
 * </ul>
 *
 * <p>Faults: anything thrown by the core, the log, the store, the listener (called by the
 * core on this thread) or a task stops the loop and goes to the {@link FaultHandler}
 * (production: {@code ProcessTerminatingFaultHandler}, which halts). If the handler
 * returns, the thread ends, the transport is closed and queued tasks are refused.
 *
 * <p>Time: every loop reads the injected {@link Time} once (twice around a flush); the core
 * never sees time go backwards even if the wall clock does. Lifecycle: new, then
 * {@link #start()}, then {@link #shutdown} or {@link #close()}; the transport, made by the
 * factory in the constructor, is closed on stop; the log and the store belong to the
 * caller, who closes them after the driver stopped.
 */
public final class RaftDriver implements RaftNode {
    /** Inbound requests waiting for the driver; more are dropped (the sender times out). */
    public static final int INBOUND_REQUESTS_QUEUED_MAX = 1 << 16;
    /** Appends and tasks waiting for the driver; more are refused. A pass runs them all. */
    public static final int TASKS_QUEUED_MAX = DriverLoop.TASKS_PER_PASS_MAX;
    /** How long {@link #close()} waits for the thread, beyond which it only warns. */
    static final long STOP_WAIT_MS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(RaftDriver.class);
    private static final int INBOUND_CHUNK_SIZE = 1024;

    /** An append or an {@link #execute} task; {@code future} is null for the latter. */
    private record Task(LongConsumer action, CompletableFuture<?> future) implements DriverLoop.CoreTask {
        /** On the driver thread; a task that throws fails its future too, then the driver. */
        @Override
        public void run(RaftCore core, long nowMs) {
            try {
                action.accept(nowMs);
            } catch (Throwable fault) {
                if (future != null) {
                    future.completeExceptionally(fault);
                }
                throw fault;
            }
        }

        void refuse(String reason) {
            if (future != null) {
                future.completeExceptionally(new RejectedExecutionException(reason));
            }
        }
    }

    private enum Lifecycle { NEW, RUNNING, STOPPED }

    private final RaftConfig config;
    private final RaftLog log;
    private final Time time;
    private final FaultHandler faultHandler;
    private final String logPrefix;
    private final DriverLoop loop;
    private final RaftCore core;
    private final DriverLoop.Source<DriverLoop.CoreTask> taskSource;
    private final DriverLoop.Source<RaftMessage> inboundSource = this::pollInbound;
    private final Thread thread;
    private final Transport transport;
    /**
     * The voter set whose addresses the transport was last given: written on the driver thread,
     * read by any ({@link #voters()}).
     */
    private volatile VoterSet addressedVoters;
    private final MpscUnboundedArrayQueue<RaftMessage> inbound = new MpscUnboundedArrayQueue<>(INBOUND_CHUNK_SIZE);
    private final AtomicInteger inboundRequestsQueued = new AtomicInteger();
    private final MpscArrayQueue<Task> tasks = new MpscArrayQueue<>(TASKS_QUEUED_MAX);
    /** Guards {@link #lifecycle} changes against task offers, so no task is queued after the last drain. */
    private final Object lifecycleLock = new Object();
    private final AtomicBoolean transportClosed = new AtomicBoolean();
    private volatile Lifecycle lifecycle = Lifecycle.NEW;
    private volatile RaftStatus status;
    private volatile boolean stopRequested;
    /** Requested graceful-shutdown timeout; -1 until {@link #shutdown} is called. */
    private volatile long shutdownTimeoutMs = -1;

    // Driver-thread state.
    private long lastNowMs = Long.MIN_VALUE;

    /**
     * Builds the core (reading the log and the election state) and then the transport, giving
     * it this driver's inbound queue as its sink; inbound messages that arrive before
     * {@link #start()} wait in the queue.
     *
     * @param transportFactory makes the transport for a sink, e.g. {@code GrpcRaftTransport.factory(...)}
     * @param randomSeed       seeds the core's randomness (election timeouts)
     */
    public RaftDriver(RaftConfig config, RaftLog log, QuorumStateStore stateStore,
                      Function<InboundSink, Transport> transportFactory, RaftListener listener, Time time,
                      FaultHandler faultHandler, long randomSeed) {
        this.config = config.validate();
        this.log = log;
        this.time = time;
        this.faultHandler = faultHandler;
        this.logPrefix = "[node " + config.localId() + "] ";
        this.loop = new DriverLoop(config, log, stateStore, new SplittableRandom(randomSeed), listener, nowMs(),
                this::sendToTransport, published -> status = published);
        this.core = loop.core();
        this.taskSource = tasks::relaxedPoll;
        this.thread = new Thread(this::run, "raft-driver-" + config.localId());
        this.transport = transportFactory.apply(this::deliver);
    }

    @Override
    public void start() {
        synchronized (lifecycleLock) {
            if (lifecycle != Lifecycle.NEW) {
                throw new IllegalStateException("node " + config.localId() + " driver already " + lifecycle);
            }
            lifecycle = Lifecycle.RUNNING;
        }
        LOG.info("{}starting the Raft driver as {} with controller.quorum.voters {}", logPrefix,
                config.localKey(), config.voterIds());
        thread.start();
    }

    /**
     * Queues an atomic append for the driver thread, which calls {@code core.append} with
     * {@code epoch}. The future completes on the driver thread (use the {@code *Async} stages
     * to leave it); with QUEUE_FULL when the task queue is full, and exceptionally with
     * {@link RejectedExecutionException} once the driver stopped.
     */
    @Override
    public CompletableFuture<AppendResult> append(int epoch, List<ByteString> records) {
        List<ByteString> copy = List.copyOf(records);
        return queueAppend(nowMs -> core.append(epoch, copy, nowMs));
    }

    /** As {@link #append(int, List)}, in the epoch the core is in when the driver takes it. */
    @Override
    public CompletableFuture<AppendResult> append(List<ByteString> records) {
        List<ByteString> copy = List.copyOf(records);
        return queueAppend(nowMs -> core.append(core.status().epoch(), copy, nowMs));
    }

    /** Queued like {@link #append(int, List)}; the driver calls {@code core.appendControl}. */
    @Override
    public CompletableFuture<AppendResult> appendControl(int epoch, List<ByteString> records) {
        List<ByteString> copy = List.copyOf(records);
        return queueAppend(nowMs -> core.appendControl(epoch, copy, nowMs));
    }

    private CompletableFuture<AppendResult> queueAppend(LongFunction<AppendResult> append) {
        CompletableFuture<AppendResult> future = new CompletableFuture<>();
        Task task = new Task(nowMs -> future.complete(append.apply(nowMs)), future);
        try {
            if (!offer(task)) {
                future.complete(AppendResult.refused(AppendResult.Status.QUEUE_FULL, status.epoch()));
            }
        } catch (RejectedExecutionException stopped) {
            future.completeExceptionally(stopped);
        }
        return future;
    }

    /** Queued like a task; a full queue or a stopped driver drops it (a leader that stops resigns anyway). */
    @Override
    public void resign(int epoch) {
        try {
            if (!offer(new Task(nowMs -> {
                if (core.status().isLeader() && core.status().epoch() == epoch) {
                    core.resign(nowMs);
                }
            }, null))) {
                LOG.warn("{}resignation of epoch {} not queued: the task queue is full", logPrefix, epoch);
            }
        } catch (RejectedExecutionException stopped) {
            LOG.debug("{}resignation of epoch {} not queued: {}", logPrefix, epoch, stopped.getMessage());
        }
    }

    /** Queued like a task; throws {@link RejectedExecutionException} if the queue is full or the driver stopped. */
    @Override
    public void registerSnapshot(SnapshotWriter writer, Consumer<Boolean> registered) {
        if (!offer(new Task(nowMs -> registered.accept(core.createSnapshot(writer)), null))) {
            throw new RejectedExecutionException("node " + config.localId() + ": the driver's task queue is full");
        }
    }

    @Override
    public RaftStatus status() {
        return status;
    }

    @Override
    public VoterSet voters() {
        VoterSet voters = addressedVoters;
        return voters != null ? voters : config.bootstrapVoters();
    }

    @Override
    public void shutdown(long timeoutMs) {
        if (timeoutMs < 0) {
            throw new IllegalArgumentException("timeoutMs must be >= 0, got " + timeoutMs);
        }
        requireNotDriverThread("shutdown");
        if (lifecycle == Lifecycle.RUNNING) {
            LOG.info("{}graceful shutdown requested, waiting up to {} ms", logPrefix, timeoutMs);
            shutdownTimeoutMs = timeoutMs;
            LockSupport.unpark(thread);
            join(timeoutMs + STOP_WAIT_MS);
        }
        close();
    }

    @Override
    public void close() {
        requireNotDriverThread("close");
        stopRequested = true;
        synchronized (lifecycleLock) {
            if (lifecycle == Lifecycle.NEW) {
                lifecycle = Lifecycle.STOPPED;
                refuseQueuedTasks();
            }
        }
        if (thread.isAlive()) {
            LockSupport.unpark(thread);
            join(STOP_WAIT_MS);
            if (thread.isAlive()) {
                LOG.warn("{}driver thread still running {} ms after stop; closing the transport anyway",
                        logPrefix, STOP_WAIT_MS);
            }
        }
        closeTransport();
    }

    /** The transport's sink: any thread, never blocks. */
    private void deliver(RaftMessage message) {
        if (message instanceof RaftRequest request) {
            if (inboundRequestsQueued.incrementAndGet() > INBOUND_REQUESTS_QUEUED_MAX) {
                inboundRequestsQueued.decrementAndGet();
                LOG.warn("{}inbound queue full, dropping a request from node {}", logPrefix, request.sourceId());
                return;
            }
        }
        inbound.offer(message);
        LockSupport.unpark(thread);
    }

    private boolean offer(Task task) {
        synchronized (lifecycleLock) {
            if (lifecycle == Lifecycle.STOPPED) {
                throw new RejectedExecutionException("node " + config.localId() + ": the Raft driver is stopped");
            }
            if (!tasks.offer(task)) {
                return false;
            }
        }
        LockSupport.unpark(thread);
        return true;
    }

    private void run() {
        try {
            while (!stopRequested) {
                long deadlineMs = runOnce();
                if (loop.isShutdownOver()) {
                    LOG.info("{}graceful shutdown {}", logPrefix, loop.isShutdownComplete() ? "complete" : "timed out");
                    break;
                }
                parkUntil(deadlineMs);
            }
        } catch (Throwable fault) {
            faultHandler.handleFault(logPrefix + "the Raft driver stopped on a fault: " + fault, fault);
        } finally {
            synchronized (lifecycleLock) {
                lifecycle = Lifecycle.STOPPED;
                refuseQueuedTasks();
            }
            closeTransport();
            LOG.info("{}Raft driver stopped at {}", logPrefix, status);
        }
    }

    /** One pass of the {@link DriverLoop}, flushing here; returns when the next pass is due. */
    private long runOnce() {
        long timeoutMs = shutdownTimeoutMs;
        if (timeoutMs >= 0) {
            loop.requestShutdown(timeoutMs);
        }
        long deadlineMs = loop.runPass(nowMs(), taskSource, inboundSource);
        if (loop.awaitsFlush()) {
            deadlineMs = loop.completeFlush(nowMs());
        }
        learnVoterAddresses();
        return deadlineMs;
    }

    /**
     * Hands the transport the addresses of the voter set in force whenever it changed: a voter
     * added with AddVoter is in no node's configuration, only in the log (KIP-853).
     */
    private void learnVoterAddresses() {
        VoterSet voters = loop.core().voters();
        if (voters == addressedVoters) {
            return;
        }
        addressedVoters = voters;
        Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
        for (VoterSet.Voter voter : voters.voters()) {
            if (voter.key().id() != config.localId() && !voter.endpoints().isEmpty()) {
                VoterSet.Endpoint endpoint = voter.endpoints().get(0);
                addresses.put(voter.key().id(), new InetSocketAddress(endpoint.host(), endpoint.port()));
            }
        }
        if (!addresses.isEmpty()) {
            transport.learnPeers(addresses);
        }
    }

    /** The inbound queue as the loop drains it, counting the requests that leave it. */
    private RaftMessage pollInbound() {
        RaftMessage message = inbound.relaxedPoll();
        if (message instanceof RaftRequest) {
            inboundRequestsQueued.decrementAndGet();
        }
        return message;
    }

    private void sendToTransport(RaftMessage message) {
        transport.send(message);
    }

    /**
     * Parks until {@code deadlineMs} (the loop's, the shutdown deadline included) unless
     * something is already queued. A producer's unpark between the emptiness check and the park
     * leaves a permit, so the park returns at once: no wakeup is lost.
     */
    private void parkUntil(long deadlineMs) {
        if (!inbound.isEmpty() || !tasks.isEmpty() || stopRequested
                || (shutdownTimeoutMs >= 0 && !loop.isShutdownBegun())) {
            return;
        }
        long waitMs = deadlineMs - nowMs();
        if (waitMs > 0) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(waitMs));
        }
    }

    /** The injected clock, clamped so it never goes backwards (the wall clock may). */
    private long nowMs() {
        lastNowMs = Math.max(lastNowMs, time.milliseconds());
        return lastNowMs;
    }

    /** Caller holds {@link #lifecycleLock} and has set STOPPED: nothing more can be queued. */
    private void refuseQueuedTasks() {
        int refused = 0;
        for (Task task = tasks.relaxedPoll(); task != null; task = tasks.relaxedPoll()) {
            task.refuse("node " + config.localId() + ": the Raft driver stopped");
            refused++;
        }
        if (refused > 0) {
            LOG.warn("{}refused {} tasks queued when the driver stopped", logPrefix, refused);
        }
    }

    private void closeTransport() {
        if (transportClosed.compareAndSet(false, true)) {
            transport.close();
        }
    }

    private void join(long timeoutMs) {
        try {
            thread.join(timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void requireNotDriverThread(String operation) {
        if (Thread.currentThread() == thread) {
            throw new IllegalStateException(operation + " must not be called from the driver thread (it waits for it)");
        }
    }
}
