package io.metaquorum.raft.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemoryQuorumStateStoreTest {
    @Test
    void readsBackTheLastWrite() {
        InMemoryQuorumStateStore store = new InMemoryQuorumStateStore();
        assertEquals(Optional.empty(), store.read());
        store.write(new ElectionState(3, ElectionState.NONE, 2));
        store.write(new ElectionState(4, 1, ElectionState.NONE));
        assertEquals(Optional.of(new ElectionState(4, 1, ElectionState.NONE)), store.read());
        assertThrows(NullPointerException.class, () -> store.write(null));
    }
}
