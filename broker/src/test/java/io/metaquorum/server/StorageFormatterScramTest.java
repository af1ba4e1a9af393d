package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.MetadataRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mq-storage format --add-scram}: the bootstrap file a controller gets, and what reading it checks. */
class StorageFormatterScramTest {
    @TempDir
    Path dir;

    private ServerConfig config(String roles) {
        Map<String, String> raw = ServerConfigTest.valid();
        raw.put("process.roles", roles);
        raw.put("metadata.log.dir", dir.resolve("metadata").toString());
        if (!roles.contains("controller")) {
            raw.put("log.dirs", dir.resolve("logs").toString());
        }
        return ServerConfig.parse(raw);
    }

    private static List<MetadataRecord> scram(String... arguments) {
        return ScramArguments.parse(List.of(arguments), new SplittableRandom(3));
    }

    @Test
    void aControllerGetsTheCredentialsAndReadsThemBack() throws IOException {
        List<MetadataRecord> records = scram("SCRAM-SHA-256=[name=alice,password=alice-secret]",
                "SCRAM-SHA-512=[name=bob,password=bob-secret,iterations=8192]");
        List<String> out = new ArrayList<>();
        StorageFormatter.format(config("controller"), ClusterIds.random(), Optional.empty(), records, false,
                out::add);
        Path metadata = dir.resolve("metadata");
        assertEquals(records, BootstrapScram.read(metadata));
        assertTrue(out.stream().anyMatch(line -> line.startsWith("Wrote 2 SCRAM credentials")), out.toString());
        String text = Files.readString(metadata.resolve(BootstrapScram.FILE_NAME));
        assertFalse(text.contains("secret"), "no password in the file");
    }

    @Test
    void aBrokerIgnoresTheFlagAndSaysSo() {
        List<String> out = new ArrayList<>();
        StorageFormatter.format(config("broker"), ClusterIds.random(), Optional.empty(),
                scram("SCRAM-SHA-256=[name=alice,password=x]"), false, out::add);
        assertFalse(Files.exists(dir.resolve("metadata").resolve(BootstrapScram.FILE_NAME)));
        assertTrue(out.contains("--add-scram ignored: node 2 is not a controller, and only controllers bootstrap "
                + "the metadata log"), out.toString());
    }

    @Test
    void withoutTheFlagThereIsNoFileAndNothingToBootstrap() {
        StorageFormatter.format(config("controller"), ClusterIds.random(), false, line -> { });
        assertFalse(Files.exists(dir.resolve("metadata").resolve(BootstrapScram.FILE_NAME)));
        assertEquals(List.of(), BootstrapScram.read(dir.resolve("metadata")));
    }

    @Test
    void aBrokenFileStopsStartUpNamingIt() throws IOException {
        StorageFormatter.format(config("controller"), ClusterIds.random(), Optional.empty(),
                scram("SCRAM-SHA-256=[name=alice,password=x]"), false, line -> { });
        Path file = dir.resolve("metadata").resolve(BootstrapScram.FILE_NAME);
        String good = Files.readString(file);
        Files.writeString(file, good.replace("credentials=1", "credentials=2"));
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> BootstrapScram.read(dir.resolve("metadata")));
        assertEquals(file + " has no credential.1", missing.getMessage());
        MetadataRecord noOp = io.metaquorum.metadata.record.MetadataRecordCodec.noOp();
        Files.writeString(file, "credentials=1\ncredential.0="
                + java.util.Base64.getEncoder().encodeToString(noOp.toByteArray()) + "\n");
        assertEquals(file + " has a bad credential.0: not a UserScramCredentialRecord",
                assertThrows(IllegalStateException.class, () -> BootstrapScram.read(dir.resolve("metadata")))
                        .getMessage());
        MetadataRecord tooFew = scram("SCRAM-SHA-256=[name=alice,password=x]").get(0);
        tooFew = tooFew.toBuilder().setUserScramCredential(tooFew.getUserScramCredential().toBuilder()
                .setIterations(10)).build();
        Files.writeString(file, "credentials=1\ncredential.0="
                + java.util.Base64.getEncoder().encodeToString(tooFew.toByteArray()) + "\n");
        String message = assertThrows(IllegalStateException.class,
                () -> BootstrapScram.read(dir.resolve("metadata"))).getMessage();
        assertTrue(message.startsWith(file + " has a bad credential.0: ") && message.contains("iterations 10"),
                message);
    }
}
