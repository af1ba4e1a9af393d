package io.metaquorum.sim.system.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The durability rules of the simulated disk: what a crash keeps and what it loses. */
class SimFileSystemTest {
    private static final Path DIR = Path.of("/data/a");
    private static final Path FILE = DIR.resolve("f");
    private static final byte[] BYTES = "hello".getBytes(StandardCharsets.US_ASCII);

    private final SimFileSystem fs = strict();

    private static SimFileSystem strict() {
        SimFileSystem fs = new SimFileSystem(new Random(1), CrashMode.LOSE_ALL_UNSYNCED);
        fs.mkdirs(DIR);
        return fs;
    }

    private void crashAndRestart() {
        fs.crash();
        fs.restart();
    }

    @Test
    void aFileNeverSyncedIsLost() throws IOException {
        fs.createFile(FILE, BYTES);
        assertArrayEquals(BYTES, fs.read(FILE));
        crashAndRestart();
        assertNull(fs.read(FILE));
    }

    @Test
    void syncingTheFileDoesNotMakeItsNameDurable() throws IOException {
        fs.createFile(FILE, BYTES);
        fs.fsyncFile(FILE);
        crashAndRestart();
        assertFalse(fs.exists(FILE));
    }

    @Test
    void syncingTheDirectoryDoesNotMakeTheBytesDurable() throws IOException {
        fs.createFile(FILE, BYTES);
        fs.fsyncDirectory(DIR);
        crashAndRestart();
        assertArrayEquals(new byte[0], fs.read(FILE), "the name survives, the bytes do not");
    }

    @Test
    void bothSyncsKeepTheFile() throws IOException {
        fs.createFile(FILE, BYTES);
        fs.fsyncFile(FILE);
        fs.fsyncDirectory(DIR);
        crashAndRestart();
        assertArrayEquals(BYTES, fs.read(FILE));
    }

    @Test
    void aNewDirectoryNeedsItsParentSynced() throws IOException {
        Path sub = DIR.resolve("sub");
        fs.mkdir(sub);
        fs.createFile(sub.resolve("x"), BYTES);
        fs.fsyncFile(sub.resolve("x"));
        fs.fsyncDirectory(sub);
        crashAndRestart();
        assertFalse(fs.exists(sub), "its own sync does not make its name in the parent durable");
    }

    @Test
    void aRenameIsDurableOnceTheDirectoryIsSynced() throws IOException {
        fs.createFile(FILE, BYTES);
        fs.fsyncFile(FILE);
        fs.fsyncDirectory(DIR);
        fs.rename(DIR, "f", "g");
        assertFalse(fs.exists(FILE));
        crashAndRestart();
        assertTrue(fs.exists(FILE), "an unsynced rename is undone");
        fs.rename(DIR, "f", "g");
        fs.fsyncDirectory(DIR);
        crashAndRestart();
        assertFalse(fs.exists(FILE));
        assertArrayEquals(BYTES, fs.read(DIR.resolve("g")));
    }

    @Test
    void aRenameNeverLeavesBothNamesOrNeither() throws IOException {
        int kept = 0;
        int undone = 0;
        for (int seed = 0; seed < 200; seed++) {
            SimFileSystem random = new SimFileSystem(new Random(seed), CrashMode.KEEP_RANDOM_PREFIX);
            random.mkdirs(DIR);
            random.createFile(FILE, BYTES);
            random.fsyncFile(FILE);
            random.fsyncDirectory(DIR);
            random.createFile(DIR.resolve("other"), BYTES);
            random.rename(DIR, "f", "g");
            random.crash();
            random.restart();
            boolean f = random.exists(FILE);
            boolean g = random.exists(DIR.resolve("g"));
            assertTrue(f != g, "seed " + seed + ": f " + f + ", g " + g);
            kept += g ? 1 : 0;
            undone += f ? 1 : 0;
        }
        assertTrue(kept > 0 && undone > 0, "both outcomes occur: kept " + kept + ", undone " + undone);
    }

    @Test
    void randomCrashesCanTearAnUnsyncedFile() throws IOException {
        int torn = 0;
        for (int seed = 0; seed < 200; seed++) {
            SimFileSystem random = new SimFileSystem(new Random(seed), CrashMode.KEEP_RANDOM_PREFIX);
            random.mkdirs(DIR);
            random.createFile(FILE, BYTES);
            random.fsyncDirectory(DIR);
            random.crash();
            random.restart();
            byte[] content = random.read(FILE);
            if (content.length > 0 && content.length < BYTES.length) {
                torn++;
            }
        }
        assertTrue(torn > 0);
    }

    @Test
    void aCrashPointStopsTheOperationAndTheMachine() throws IOException {
        fs.createFile(FILE, BYTES);
        fs.crashAtOperation(2);
        fs.fsyncFile(FILE);
        assertThrows(SimulatedCrash.class, () -> fs.fsyncDirectory(DIR));
        assertTrue(fs.isCrashed());
        assertThrows(SimulatedCrash.class, () -> fs.list(DIR));
        fs.restart();
        assertFalse(fs.exists(FILE), "the directory sync never happened");
        assertEquals(1, fs.crashes());
    }

    @Test
    void aDiskErrorChangesNothing() throws IOException {
        fs.failNextOperations(1);
        assertThrows(IOException.class, () -> fs.createFile(FILE, BYTES));
        assertFalse(fs.exists(FILE));
        fs.createFile(FILE, BYTES);
        assertTrue(fs.exists(FILE));
    }

    @Test
    void directoriesMustBeEmptyToDelete() throws IOException {
        fs.mkdir(DIR.resolve("d"));
        fs.createFile(DIR.resolve("d").resolve("x"), BYTES);
        assertThrows(IOException.class, () -> fs.delete(DIR.resolve("d")));
        fs.delete(DIR.resolve("d").resolve("x"));
        fs.delete(DIR.resolve("d"));
        assertFalse(fs.exists(DIR.resolve("d")));
    }
}
