package io.metaquorum.raft.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.AppendResult;
import io.metaquorum.raft.storage.InMemoryQuorumStateStore;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.StorageException;
import io.metaquorum.raft.transport.Transport;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import io.metaquorum.raft.transport.grpc.GrpcConnectionSettings;
import io.metaquorum.raft.transport.grpc.GrpcRaftTransport;
import io.metaquorum.raft.transport.grpc.GrpcTransportConfig;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The driver around the real core: a single-voter quorum on an in-memory log. */
class RaftDriverTest {
    /** Generous: a bound that only a hung test reaches, never a timing assertion. */
    private static final long WAIT_SECONDS = 30;
    private static final int NODE = 1;
    private static final RaftConfig SINGLE_VOTER = new RaftConfig("test-cluster", NODE, List.of(NODE),
            new RaftTimeouts(50, 200, 50, 0, 200, 10, 100), RaftLimits.DEFAULTS);

    private final RecordingListener listener = new RecordingListener(NODE);
    private final RecordingTransport transport = new RecordingTransport();
    private final CompletableFuture<Throwable> fault = new CompletableFuture<>();
    private final FaultHandler recordingFaultHandler = (message, cause) -> fault.complete(cause);
    private RaftDriver driver;

    @AfterEach
    void closeDriver() {
        if (driver != null) {
            driver.close();
        }
    }

    private RaftDriver newDriver(RaftLog log) {
        driver = new RaftDriver(SINGLE_VOTER, log, new InMemoryQuorumStateStore(), sink -> transport, listener,
                SystemTime.INSTANCE, recordingFaultHandler, 42L);
        return driver;
    }

    @Test
    void anAtomicAppendPinnedToTheReportedEpochLandsAfterItsStartOffset() throws Exception {
        newDriver(new InMemoryRaftLog()).start();
        long[] led = listener.becameLeader.get(WAIT_SECONDS, TimeUnit.SECONDS);
        int epoch = (int) led[0];
        List<ByteString> records = List.of(ByteString.copyFromUtf8("a"), ByteString.copyFromUtf8("b"));

        assertEquals(AppendResult.refused(AppendResult.Status.WRONG_EPOCH, epoch),
                driver.append(epoch + 1, records).get(WAIT_SECONDS, TimeUnit.SECONDS));
        List<ByteString> tooLarge = List.of(ByteString.copyFrom(new byte[RaftLimits.DEFAULTS.appendBatchBytesMax() + 1]));
        assertEquals(AppendResult.Status.TOO_LARGE,
                driver.append(epoch, tooLarge).get(WAIT_SECONDS, TimeUnit.SECONDS).status());
        AppendResult accepted = driver.append(epoch, records).get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertEquals(AppendResult.accepted(led[1] + 2, epoch), accepted);
        assertEquals(records.get(0), listener.committedRecords.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(records.get(1), listener.committedRecords.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertFalse(fault.isDone());
    }

    @Test
    void singleVoterElectsItselfAndCommitsAnAppend() throws Exception {
        newDriver(new InMemoryRaftLog()).start();
        int epoch = listener.leadsInEpoch.get(WAIT_SECONDS, TimeUnit.SECONDS);

        List<ByteString> records = List.of(ByteString.copyFromUtf8("a"), ByteString.copyFromUtf8("b"));
        AppendResult result = driver.append(records).get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertTrue(result.accepted(), result.toString());
        assertEquals(epoch, result.epoch());
        assertEquals(records.get(0), listener.committedRecords.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(records.get(1), listener.committedRecords.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        driver.shutdown(WAIT_SECONDS * 1000);
        assertTrue(driver.status().highWatermark() > result.lastOffset(), driver.status().toString());
        assertFalse(fault.isDone());
    }

    @Test
    void aSnapshotIsRegisteredOnTheDriverThreadAndOneAtTheLogStartIsDiscarded() throws Exception {
        newDriver(new InMemoryRaftLog());
        CompletableFuture<String> threadName = new CompletableFuture<>();
        CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        driver.registerSnapshot(frozenSnapshotAtLogStart(), registered -> {
            threadName.complete(Thread.currentThread().getName());
            outcome.complete(registered);
        });
        driver.start(); // a task queued before start runs once the thread runs
        assertEquals("raft-driver-" + NODE, threadName.get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertFalse(outcome.get(WAIT_SECONDS, TimeUnit.SECONDS), "the log already starts there");
    }

    private static SnapshotWriter frozenSnapshotAtLogStart() {
        SnapshotWriter writer = new InMemoryRaftLog().createSnapshot(new OffsetAndEpoch(0, 0));
        writer.freeze();
        return writer;
    }

    @Test
    void shutdownClosesTheTransportOnceAndRefusesLaterWork() throws Exception {
        newDriver(new InMemoryRaftLog()).start();
        listener.leadsInEpoch.get(WAIT_SECONDS, TimeUnit.SECONDS);

        driver.shutdown(WAIT_SECONDS * 1000);

        assertTrue(transport.closed.await(0, TimeUnit.SECONDS));
        assertEquals(1, transport.closeCount);
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> driver.append(List.of(ByteString.copyFromUtf8("late"))).get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(RejectedExecutionException.class, refused.getCause());
        assertThrows(RejectedExecutionException.class, () -> driver.registerSnapshot(frozenSnapshotAtLogStart(),
                registered -> { }));
        driver.close(); // idempotent
        assertEquals(1, transport.closeCount);
    }

    @Test
    void closeBeforeStartClosesTheTransportAndForbidsStart() {
        newDriver(new InMemoryRaftLog()).close();
        assertEquals(1, transport.closeCount);
        assertThrows(IllegalStateException.class, driver::start);
    }

    @Test
    void aFailedSyncGoesToTheFaultHandlerAndStopsTheDriver() throws Exception {
        newDriver(new FlushFailingLog()).start();

        Throwable cause = fault.get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertInstanceOf(StorageException.class, cause);
        assertTrue(transport.closed.await(WAIT_SECONDS, TimeUnit.SECONDS), "transport left open after a fault");
        assertThrows(RejectedExecutionException.class, () -> driver.registerSnapshot(frozenSnapshotAtLogStart(),
                registered -> { }));
    }

    @Test
    void answersDescribeQuorumOverGrpc() throws Exception {
        AtomicReference<GrpcRaftTransport> grpc = new AtomicReference<>();
        GrpcTransportConfig transportConfig = new GrpcTransportConfig(NODE,
                List.of(new InetSocketAddress("127.0.0.1", 0)), Map.of(), 2_000, GrpcConnectionSettings.DEFAULTS);
        driver = new RaftDriver(SINGLE_VOTER, new InMemoryRaftLog(), new InMemoryQuorumStateStore(), sink -> {
            GrpcRaftTransport started = GrpcRaftTransport.start(transportConfig, sink, List.of());
            grpc.set(started);
            return (Transport) started;
        }, listener, SystemTime.INSTANCE, recordingFaultHandler, 7L);
        driver.start();
        int epoch = listener.leadsInEpoch.get(WAIT_SECONDS, TimeUnit.SECONDS);

        try (QuorumClient client = new QuorumClient(grpc.get().boundAddresses().get(0),
                WAIT_SECONDS * 1000)) {
            DescribeQuorumResponse response = client.describeMetadataQuorum();
            assertNotNull(response);
            assertEquals(ErrorCode.NONE, response.getErrorCode(), response.toString());
            assertEquals(NODE, response.getTopics(0).getPartitions(0).getLeaderId());
            assertEquals(epoch, response.getTopics(0).getPartitions(0).getLeaderEpoch());
        }
    }
}
