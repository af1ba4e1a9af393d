package io.metaquorum.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Loads and initializes, at start-up, every class of the jars (or class directories) that
 * hold the given anchor classes.
 *
 * <p>Why: the JVM loads a class on first use. The roles, handlers and messages of an
 * election are first used in the middle of one, and on a node restarted a moment ago that
 * meant tens of milliseconds of reading and verifying classes between a leader's
 * EndQuorumEpoch and the successor's campaign. Loading them here moves that cost to
 * start-up, where nobody waits for it.
 */
final class ClassPreloader {
    private static final String CLASS_SUFFIX = ".class";

    private ClassPreloader() {
    }

    /** Returns how many classes were loaded; a class that cannot be loaded is skipped. */
    static int preload(List<Class<?>> anchors) {
        ClassLoader loader = ClassPreloader.class.getClassLoader();
        int loaded = 0;
        for (Class<?> anchor : anchors) {
            for (String name : classNames(locationOf(anchor))) {
                try {
                    Class.forName(name, true, loader);
                    loaded++;
                } catch (ClassNotFoundException | LinkageError e) {
                    // An optional dependency missing at run time: that class stays unloaded.
                }
            }
        }
        return loaded;
    }

    private static Path locationOf(Class<?> anchor) {
        try {
            return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("no file location for " + anchor.getName(), e);
        }
    }

    /** The binary names of the classes in a jar or under a class directory. */
    static List<String> classNames(Path location) {
        List<String> names = new ArrayList<>();
        try {
            if (Files.isDirectory(location)) {
                try (Stream<Path> files = Files.walk(location)) {
                    files.map(file -> location.relativize(file).toString().replace(location.getFileSystem()
                            .getSeparator(), "/")).filter(ClassPreloader::isClass).map(ClassPreloader::binaryName)
                            .forEach(names::add);
                }
            } else {
                try (JarFile jar = new JarFile(location.toFile())) {
                    Enumeration<JarEntry> entries = jar.entries();
                    while (entries.hasMoreElements()) {
                        String entry = entries.nextElement().getName();
                        if (isClass(entry)) {
                            names.add(binaryName(entry));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the classes in " + location, e);
        }
        return names;
    }

    private static boolean isClass(String path) {
        return path.endsWith(CLASS_SUFFIX) && !path.endsWith("module-info.class")
                && !path.endsWith("package-info.class") && !path.startsWith("META-INF/");
    }

    private static String binaryName(String path) {
        return path.substring(0, path.length() - CLASS_SUFFIX.length()).replace('/', '.');
    }
}
