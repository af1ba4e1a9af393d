package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageFormatterTest {
    @TempDir
    Path dir;

    private ServerConfig config(int nodeId) {
        Map<String, String> raw = ServerConfigTest.valid();
        raw.put("node.id", Integer.toString(nodeId));
        raw.put("controller.quorum.voters", "1@127.0.0.1:19091,2@127.0.0.1:19092");
        raw.put("listeners", "127.0.0.1:1909" + nodeId);
        raw.put("metadata.log.dir", dir.resolve("metadata").toString());
        return ServerConfig.parse(raw);
    }

    @Test
    void formatWritesMetaProperties() throws IOException {
        String clusterId = ClusterIds.random();
        List<String> out = new ArrayList<>();
        StorageFormatter.format(config(2), clusterId, false, out::add);
        assertEquals(Optional.of(new MetaProperties(clusterId, 2)), MetaProperties.read(dir.resolve("metadata")));
        String text = Files.readString(dir.resolve("metadata/meta.properties"));
        assertTrue(text.contains("version=1\ncluster.id=" + clusterId + "\nnode.id=2\n"), text);
        assertEquals(1, out.size());
        assertEquals(clusterId, StorageFormatter.requireFormatted(config(2), dir.resolve("server.properties")));
    }

    @Test
    void aFormattedDirectoryIsRefusedUnlessIgnored() {
        String first = ClusterIds.random();
        StorageFormatter.format(config(2), first, false, line -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StorageFormatter.format(config(2), ClusterIds.random(), false, line -> { }));
        assertTrue(e.getMessage().contains("already formatted") && e.getMessage().contains("--ignore-formatted"),
                e.getMessage());
        List<String> out = new ArrayList<>();
        StorageFormatter.format(config(2), ClusterIds.random(), true, out::add);
        assertTrue(out.get(0).startsWith("Skipping"), out.toString());
        assertEquals(first, MetaProperties.read(dir.resolve("metadata")).orElseThrow().clusterId(), "left untouched");
    }

    @Test
    void aBadClusterIdIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> StorageFormatter.format(config(2), "short", false, l -> { }));
        assertThrows(IllegalArgumentException.class,
                () -> StorageFormatter.format(config(2), "AAAAAAAAAAAAAAAAAAAAAQ", false, l -> { }),
                "the metadata topic's reserved id");
        assertTrue(Files.notExists(dir.resolve("metadata")), "nothing written");
    }

    @Test
    void aServerRefusesAnUnformattedOrForeignDirectory() {
        Path configFile = dir.resolve("server.properties");
        IllegalStateException unformatted = assertThrows(IllegalStateException.class,
                () -> StorageFormatter.requireFormatted(config(2), configFile));
        assertTrue(unformatted.getMessage().contains("is not formatted"), unformatted.getMessage());

        StorageFormatter.format(config(1), ClusterIds.random(), false, line -> { });
        IllegalStateException foreign = assertThrows(IllegalStateException.class,
                () -> StorageFormatter.requireFormatted(config(2), configFile));
        assertTrue(foreign.getMessage().contains("belongs to node.id 1"), foreign.getMessage());
    }

    @Test
    void aBrokenMetaPropertiesIsNamed() throws IOException {
        Files.createDirectories(dir.resolve("metadata"));
        Files.writeString(dir.resolve("metadata/meta.properties"), "version=1\ncluster.id=x\nnode.id=1\n");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MetaProperties.read(dir.resolve("metadata")));
        assertTrue(e.getMessage().contains("meta.properties"), e.getMessage());
    }
}
