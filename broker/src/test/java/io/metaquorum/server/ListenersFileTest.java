package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.net.HostPort;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** server.listeners: its format, its removal, and a left-over file gone before the new pid. */
class ListenersFileTest {
    @TempDir
    Path dir;

    private Path configFile() {
        return dir.resolve("server.properties");
    }

    @Test
    void holdsOneHostPortLinePerListenerNextToTheProperties() throws IOException {
        ListenersFile file = ListenersFile.nextTo(configFile());
        assertEquals(dir.resolve("server.listeners"), file.path());
        assertEquals(Optional.empty(), ListenersFile.read(file.path()), "no file before the node serves");

        file.write(List.of(new HostPort("127.0.0.1", 40517), new HostPort("::1", 40518)));

        assertEquals("127.0.0.1:40517\n[::1]:40518\n", Files.readString(file.path(), StandardCharsets.UTF_8));
        assertEquals(Optional.of(List.of(new HostPort("127.0.0.1", 40517), new HostPort("::1", 40518))),
                ListenersFile.read(file.path()));
        assertFalse(Files.exists(dir.resolve("server.listeners.tmp")), "written aside, then renamed");
    }

    @Test
    void deleteRemovesOnlyWhatThisProcessWrote() throws IOException {
        ListenersFile file = ListenersFile.nextTo(configFile());
        file.write(List.of(new HostPort("127.0.0.1", 40517)));
        file.delete();
        assertFalse(Files.exists(file.path()));

        file.write(List.of(new HostPort("127.0.0.1", 40517)));
        Files.writeString(file.path(), "127.0.0.1:40999\n", StandardCharsets.UTF_8);
        file.delete();
        assertTrue(Files.exists(file.path()), "another process's file stays");
    }

    @Test
    void aFileAnEarlierProcessLeftIsGoneOnceTheNewPidIsWritten() throws IOException {
        Path leftOver = ListenersFile.nextTo(configFile()).path();
        Files.writeString(leftOver, "127.0.0.1:40517\n", StandardCharsets.UTF_8);

        PidFile pidFile = PidFile.create(configFile(), List.of(leftOver));

        assertFalse(Files.exists(leftOver));
        assertEquals(Optional.of(ProcessHandle.current().pid()), PidFile.readPid(pidFile.path()));
        pidFile.delete();
    }
}
