package io.metaquorum.process;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/** A classpath whose directories (a module's target/classes) are packed into jars, its jars kept as they are. */
final class ClassPathJars {
    private ClassPathJars() {
    }

    /** {@code classPath} with each directory on it replaced by a jar of its files, written under {@code jarDirectory}. */
    static String jarsOnly(String classPath, Path jarDirectory) {
        List<String> entries = new ArrayList<>();
        int next = 0;
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path jar = jarDirectory.resolve("classes-" + next++ + ".jar");
                pack(path, jar);
                entries.add(jar.toString());
            } else if (!entry.isEmpty()) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void pack(Path directory, Path jar) {
        try {
            Files.createDirectories(jar.getParent());
            try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                 Stream<Path> paths = Files.walk(directory)) {
                for (Path path : (Iterable<Path>) paths.sorted()::iterator) {
                    if (path.equals(directory)) {
                        continue;
                    }
                    String name = directory.relativize(path).toString().replace(File.separatorChar, '/');
                    if (Files.isDirectory(path)) {
                        out.putNextEntry(new JarEntry(name + "/"));
                    } else {
                        out.putNextEntry(new JarEntry(name));
                        Files.copy(path, out);
                    }
                    out.closeEntry();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pack " + directory + " into " + jar, e);
        }
    }
}
