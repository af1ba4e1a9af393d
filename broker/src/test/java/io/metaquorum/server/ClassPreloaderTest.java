package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.RaftNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassPreloaderTest {
    private static final List<String> FILES = List.of("a/B.class", "a/c/D$E.class", "a/package-info.class",
            "module-info.class", "a/notes.txt");

    @Test
    void namesTheClassesUnderADirectory(@TempDir Path dir) throws IOException {
        for (String file : FILES) {
            Path path = dir.resolve(file);
            Files.createDirectories(path.getParent());
            Files.write(path, new byte[0]);
        }
        assertEquals(List.of("a.B", "a.c.D$E"), ClassPreloader.classNames(dir).stream().sorted().toList());
    }

    @Test
    void namesTheClassesInAJar(@TempDir Path dir) throws IOException {
        Path jar = dir.resolve("x.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out)) {
            for (String file : FILES) {
                jarOut.putNextEntry(new JarEntry(file));
                jarOut.closeEntry();
            }
            jarOut.putNextEntry(new JarEntry("META-INF/versions/11/a/F.class"));
            jarOut.closeEntry();
        }
        assertEquals(List.of("a.B", "a.c.D$E"), ClassPreloader.classNames(jar).stream().sorted().toList());
    }

    @Test
    void loadsEveryClassOfTheAnchorsModule() throws Exception {
        Path raftClasses = Path.of(RaftNode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        int classes = ClassPreloader.classNames(raftClasses).size();
        assertTrue(classes > 50, "the raft module has its classes: " + classes);
        assertEquals(classes, ClassPreloader.preload(List.of(RaftNode.class)));
    }
}
