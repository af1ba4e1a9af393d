package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.raft.TopicIds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetaPropertiesTest {
    @TempDir
    Path dir;

    @Test
    void aDirectoryIdRoundTrips() {
        MetaProperties meta = new MetaProperties(ClusterIds.random(), 3, DirectoryIds.random());
        meta.write(dir);
        assertEquals(Optional.of(meta), MetaProperties.read(dir));
    }

    @Test
    void aFileWrittenBeforeDirectoryIdsHasNone() throws IOException {
        String clusterId = ClusterIds.random();
        Files.writeString(dir.resolve(MetaProperties.FILE_NAME), "version=1\ncluster.id=" + clusterId
                + "\nnode.id=2\n");
        MetaProperties meta = MetaProperties.read(dir).orElseThrow();
        assertEquals(new MetaProperties(clusterId, 2), meta);
        assertEquals(TopicIds.ZERO, meta.directoryId());
        assertFalse(meta.hasDirectoryId());
    }

    @Test
    void aBadDirectoryIdNamesTheFileAndTheKey() throws IOException {
        Files.writeString(dir.resolve(MetaProperties.FILE_NAME), "version=1\ncluster.id=" + ClusterIds.random()
                + "\nnode.id=2\ndirectory.id=short\n");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> MetaProperties.read(dir));
        assertEquals(dir.resolve(MetaProperties.FILE_NAME) + " has directory.id 'short': a directory id is 22 "
                + "characters of URL-safe base64 (make one with mq-storage random-uuid), got 'short'", e.getMessage());
    }
}
