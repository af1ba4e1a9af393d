package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
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
        MetaProperties meta = MetaProperties.read(dir.resolve("metadata")).orElseThrow();
        assertEquals(new MetaProperties(clusterId, 2, meta.directoryId()), meta);
        assertTrue(meta.hasDirectoryId(), "a random directory id");
        String text = Files.readString(dir.resolve("metadata/meta.properties"));
        assertTrue(text.contains("version=1\ncluster.id=" + clusterId + "\nnode.id=2\ndirectory.id="
                + TopicIds.toBase64(meta.directoryId()) + "\n"), text);
        assertEquals(1, out.size());
        assertFalse(Files.exists(dir.resolve("metadata").resolve(BootstrapVoters.FILE_NAME)), "static voters");
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

    private static final String DIR_1 = "AAAAAAAAAAAAAAAAAAAAEQ";
    private static final String DIR_2 = "AAAAAAAAAAAAAAAAAAAAEg";

    @Test
    void initialControllersAreWrittenAndTheNodesEntryGivesItsDirectoryId() {
        VoterSet initial = InitialControllers.parse("1@127.0.0.1:19091:" + DIR_1 + ",2@127.0.0.1:19092:" + DIR_2);
        List<String> out = new ArrayList<>();
        StorageFormatter.format(config(2), ClusterIds.random(), Optional.of(initial), false, out::add);
        assertEquals(DIR_2, TopicIds.toBase64(MetaProperties.read(dir.resolve("metadata")).orElseThrow().directoryId()));
        assertEquals(Optional.of(initial), BootstrapVoters.read(dir.resolve("metadata")));
        assertTrue(out.get(0).endsWith("and directory.id " + DIR_2), out.toString());
    }

    @Test
    void noInitialControllersLeavesAnEmptyVoterSetToLearnFromTheLog() {
        StorageFormatter.format(config(2), ClusterIds.random(), Optional.of(VoterSet.EMPTY), false, line -> { });
        assertEquals(Optional.of(VoterSet.EMPTY), BootstrapVoters.read(dir.resolve("metadata")));
        assertTrue(MetaProperties.read(dir.resolve("metadata")).orElseThrow().hasDirectoryId());
    }

    @Test
    void initialControllersMustBeConfiguredVoters() {
        VoterSet initial = InitialControllers.parse("1@127.0.0.1:19091:" + DIR_1 + ",3@127.0.0.1:19093:" + DIR_2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StorageFormatter.format(config(2), ClusterIds.random(), Optional.of(initial), false, l -> { }));
        assertEquals("--initial-controllers names controller 3, which controller.quorum.voters does not list "
                + "([1, 2])", e.getMessage());
        assertFalse(Files.exists(dir.resolve("metadata").resolve(MetaProperties.FILE_NAME)), "nothing written");
    }
}
