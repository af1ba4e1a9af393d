package io.metaquorum.metadata.log.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.raft.storage.ElectionState;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksDbQuorumStateStoreTest {
    @TempDir
    Path directory;

    @Test
    void stateSurvivesReopenAndSharesTheDatabaseWithTheLog() {
        try (MetadataLogStore store = MetadataLogStore.open(directory)) {
            assertEquals(Optional.empty(), store.quorumStateStore().read());
            store.quorumStateStore().write(new ElectionState(3, ElectionState.NONE, 2));
            store.raftLog().append(TestBatches.batch(0, 3, 2));
            store.quorumStateStore().write(new ElectionState(4, 1, ElectionState.NONE));
        }
        try (MetadataLogStore store = MetadataLogStore.open(directory)) {
            assertEquals(Optional.of(new ElectionState(4, 1, ElectionState.NONE)), store.quorumStateStore().read());
            assertEquals(2, store.raftLog().endOffset());
        }
    }
}
