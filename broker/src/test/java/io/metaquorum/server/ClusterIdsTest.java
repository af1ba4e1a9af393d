package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ClusterIdsTest {
    @Test
    void randomIdsAre22CharactersOfUrlSafeBase64AndValid() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 1000; i++) {
            String id = ClusterIds.random(random);
            assertEquals(22, id.length());
            assertFalse(id.startsWith("-"), id);
            assertEquals(id, ClusterIds.validate(id));
        }
    }

    @Test
    void reservedAndMalformedIdsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ClusterIds.validate("AAAAAAAAAAAAAAAAAAAAAA"));
        assertThrows(IllegalArgumentException.class, () -> ClusterIds.validate("AAAAAAAAAAAAAAAAAAAAAQ"));
        assertThrows(IllegalArgumentException.class, () -> ClusterIds.validate("not-an-id"));
        assertThrows(IllegalArgumentException.class, () -> ClusterIds.validate("!!!!!!!!!!!!!!!!!!!!!!"));
    }
}
