package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.tool.ForcedVoterSet;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.KRaftVersionRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.server.BootstrapVoters;
import io.metaquorum.server.ClusterIds;
import io.metaquorum.server.InitialControllers;
import io.metaquorum.server.MetaProperties;
import io.metaquorum.server.ServerConfig;
import io.metaquorum.server.StorageFormatter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mq-metadata unsafe-recover} on a stopped controller's directory: what it refuses,
 * that the dry run changes nothing, and that the VotersRecord it appends is what the storage
 * reads back as the voter set, in a new epoch with a fresh election state.
 */
class UnsafeRecoverCommandTest {
    private static final String CLUSTER_ID = ClusterIds.random();
    private static final String DIR_1 = ClusterIds.random();
    private static final String DIR_2 = ClusterIds.random();
    private static final String DIR_3 = ClusterIds.random();
    private static final String INITIAL = "1@127.0.0.1:19091:" + DIR_1 + ",2@127.0.0.1:19092:" + DIR_2
            + ",3@127.0.0.1:19093:" + DIR_3;
    private static final String ONLY_ONE = "1@127.0.0.1:19091:" + DIR_1;

    @TempDir
    Path dir;

    private Path config() throws IOException {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "process.roles=controller\nnode.id=1\ncontroller.quorum.voters=1@127.0.0.1:19091,"
                + "2@127.0.0.1:19092,3@127.0.0.1:19093\nlisteners=127.0.0.1:19091\nmetadata.log.dir="
                + metadataDir() + "\n");
        return file;
    }

    private Path metadataDir() {
        return dir.resolve("metadata");
    }

    /** Node 1 formatted with the three initial controllers, its log: the bootstrap batch (epoch 1), a record (epoch 2). */
    private Path formattedNodeThatRan() throws IOException {
        Path file = config();
        StorageFormatter.format(ServerConfig.load(file), CLUSTER_ID, Optional.of(InitialControllers.parse(INITIAL)),
                false, line -> { });
        try (MetadataLogStore store = MetadataLogStore.open(metadataDir())) {
            ByteString version = ControlRecord.newBuilder().setKraftVersion(KRaftVersionRecord.newBuilder()
                    .setKraftVersion(1)).build().toByteString();
            ByteString voters = ControlRecord.newBuilder().setVoters(InitialControllers.parse(INITIAL).toRecord())
                    .build().toByteString();
            store.raftLog().append(RecordBatches.build(0, 1, 0, true, List.of(version, voters)));
            store.raftLog().append(RecordBatches.build(2, 2, 0, false, List.of(ByteString.copyFromUtf8("topic"))));
            store.raftLog().flush();
            store.quorumStateStore().write(new ElectionState(2, 2, 2));
        }
        return file;
    }

    private static CliRun recover(Path config, String voters, String... more) {
        String[] args = new String[4 + more.length];
        args[0] = "unsafe-recover";
        args[1] = "--config";
        args[2] = config.toString();
        args[3] = "--voters=" + voters;
        System.arraycopy(more, 0, args, 4, more.length);
        return CliRun.of(MetadataTool::run, args);
    }

    private static void assertRefused(CliRun run, String expected) {
        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertEquals(1, run.errLines(), run.err());
        assertTrue(run.err().startsWith("mq-metadata unsafe-recover: "), run.err());
        assertTrue(run.err().contains(expected), run.err());
    }

    @Test
    void withoutTheFlagItPrintsThePlanAndChangesNothing() throws IOException {
        Path config = formattedNodeThatRan();

        CliRun run = recover(config, ONLY_ONE);

        assertEquals(UnsafeRecoverCommand.EXIT_NOTHING_DONE, run.exitCode(), run.err());
        assertTrue(run.out().contains("voters in the log:  [1:" + DIR_1 + "@127.0.0.1:19091, 2:" + DIR_2), run.out());
        assertTrue(run.out().contains("log end offset:     3, last epoch 2 (election state epoch 2)"), run.out());
        assertTrue(run.out().contains("a VotersRecord at offset 3 in the new epoch 3"), run.out());
        assertTrue(run.out().contains("WARNING: records the lost controllers committed"), run.out());
        assertTrue(run.out().contains("Nothing changed."), run.out());
        try (MetadataLogStore store = MetadataLogStore.openReadOnly(metadataDir())) {
            assertEquals(3, store.raftLog().endOffset());
            assertEquals(Optional.of(new ElectionState(2, 2, 2)), store.quorumStateStore().read());
        }
    }

    @Test
    void withTheFlagItAppendsTheNewSetInANewEpochThatTheStorageReadsBack() throws IOException {
        Path config = formattedNodeThatRan();

        CliRun run = recover(config, ONLY_ONE, UnsafeRecoverCommand.CONFIRM_FLAG);

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Done: appended the VotersRecord at offset 3 in epoch 3"), run.out());
        assertTrue(run.out().contains("voters now:    [1:" + DIR_1 + "@127.0.0.1:19091]"), run.out());
        assertTrue(run.out().contains("bin/mq-metadata add-controller"), run.out());
        VoterSet expected = InitialControllers.parse(ONLY_ONE);
        try (MetadataLogStore store = MetadataLogStore.open(metadataDir())) {
            assertEquals(4, store.raftLog().endOffset());
            assertEquals(3, store.raftLog().lastEpoch());
            RecordBatch last = store.raftLog().read(3, 1 << 20).get(0);
            assertTrue(last.getControl());
            assertEquals(3, last.getEpoch());
            ControlRecord record = ControlRecord.parseFrom(RecordBatches.records(last).get(0));
            assertEquals(expected, VoterSet.fromRecord(record.getVoters()));
            assertEquals(Optional.of(new ElectionState(3, ElectionState.NONE, ElectionState.NONE)),
                    store.quorumStateStore().read());
            VoterSet bootstrap = BootstrapVoters.read(metadataDir()).orElseThrow();
            assertEquals(expected, ForcedVoterSet.plan(store, bootstrap, expected).currentVoters(),
                    "the latest VotersRecord is the active set");
        }
        assertRefused(recover(config, ONLY_ONE, UnsafeRecoverCommand.CONFIRM_FLAG), "the voters in the log are "
                + "already [1:" + DIR_1 + "@127.0.0.1:19091]: nothing to force");
    }

    @Test
    void aRunningNodeIsRefused() throws IOException {
        Path config = formattedNodeThatRan();
        try (MetadataLogStore running = MetadataLogStore.open(metadataDir())) {
            assertRefused(recover(config, ONLY_ONE, UnsafeRecoverCommand.CONFIRM_FLAG),
                    "controller 1 is running (the lock on its metadata log in " + metadataDir() + " is held): stop it "
                            + "first");
            assertEquals(3, running.raftLog().endOffset());
        }
    }

    @Test
    void theNewSetMustNameThisNodeWithItsOwnDirectory() throws IOException {
        Path config = formattedNodeThatRan();
        assertRefused(recover(config, "2@127.0.0.1:19092:" + DIR_2), "--voters must include this node, controller 1");
        assertRefused(recover(config, "1@127.0.0.1:19091:" + DIR_2), "--voters gives controller 1 directory id "
                + DIR_2 + ", but its meta.properties says " + DIR_1);
        assertRefused(recover(config, "1@127.0.0.1:19091"), "--voters: ");
        assertRefused(recover(config, ""), "--voters: an empty entry");
    }

    @Test
    void anUnformattedDirectoryIsRefused() throws IOException {
        assertRefused(recover(config(), ONLY_ONE), "metadata.log.dir " + metadataDir() + " is not formatted");
    }

    @Test
    void aNodeThatNeverRanIsRefused() throws IOException {
        Path config = config();
        StorageFormatter.format(ServerConfig.load(config), CLUSTER_ID, Optional.of(InitialControllers.parse(INITIAL)),
                false, line -> { });
        assertRefused(recover(config, ONLY_ONE), "holds no metadata log: controller 1 never ran");
    }

    @Test
    void theStaticVoterSetIsRefusedSayingWhatToDoInstead() throws IOException {
        Path config = config();
        StorageFormatter.format(ServerConfig.load(config), CLUSTER_ID, false, line -> { });
        String directoryId = TopicIds.toBase64(MetaProperties.read(metadataDir()).orElseThrow().directoryId());
        assertRefused(recover(config, "1@127.0.0.1:19091:" + directoryId), "kraft.version 0). Instead: set "
                + "controller.quorum.voters to the surviving controllers alone");
    }
}
