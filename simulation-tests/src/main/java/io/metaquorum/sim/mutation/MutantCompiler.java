package io.metaquorum.sim.mutation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The build step that turns every mutation ({@code src/mutations/NAME.patch}) into the classes
 * of its mutant: it copies each production source the patch names, applies the patch with
 * {@link PatchApplier}, and compiles the result against the build's class path into
 * {@code mutations/NAME/} under the module's class output, where {@link MutantClassLoader}
 * finds it. A patch that is malformed, names a file that is not a production Java source, no
 * longer matches that source, or no longer compiles stops the build (exit status 1, with the
 * reason): a mutation is always production's code with its few lines changed.
 *
 * <p>Run by the module's pom (exec-maven-plugin, phase {@code process-classes}) with four
 * arguments: the patches' directory, the repository root, where to write the mutated sources,
 * and the class output directory.
 */
public final class MutantCompiler {
    /** Under the class output: the directory holding one directory of classes per mutation. */
    public static final String MUTATIONS_DIRECTORY = "mutations/";
    /** In a mutation's class directory: the sources it changes, one repository path a line. */
    public static final String TARGETS_FILE = "targets.txt";
    private static final String SOURCE_ROOT = "/src/main/java/";

    private final Path repositoryRoot;
    private final Path sourcesOut;
    private final Path classesOut;

    MutantCompiler(Path repositoryRoot, Path sourcesOut, Path classesOut) {
        this.repositoryRoot = repositoryRoot;
        this.sourcesOut = sourcesOut;
        this.classesOut = classesOut;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: MutantCompiler PATCH_DIR REPOSITORY_ROOT SOURCES_OUT CLASSES_OUT");
            System.exit(2);
        }
        MutantCompiler compiler = new MutantCompiler(Path.of(args[1]), Path.of(args[2]), Path.of(args[3]));
        try {
            List<String> built = compiler.buildAll(Path.of(args[0]));
            System.out.println("mutations built: " + String.join(", ", built));
        } catch (PatchException e) {
            System.err.println("[ERROR] " + e.getMessage());
            System.exit(1);
        }
    }

    /** Builds every {@code *.patch} of {@code patchDirectory}, in name order; returns their names. */
    List<String> buildAll(Path patchDirectory) throws IOException {
        List<Path> patches;
        try (Stream<Path> files = Files.list(patchDirectory)) {
            patches = files.filter(p -> p.getFileName().toString().endsWith(".patch")).sorted().toList();
        }
        List<String> names = new ArrayList<>();
        for (Path patch : patches) {
            String file = patch.getFileName().toString();
            String name = file.substring(0, file.length() - ".patch".length());
            build(UnifiedPatch.parse(name, Files.readAllLines(patch, StandardCharsets.UTF_8)));
            names.add(name);
        }
        return names;
    }

    /** Applies {@code patch} to the production sources it names and compiles them into the mutation's directory. */
    void build(UnifiedPatch patch) throws IOException {
        Path sources = sourcesOut.resolve(patch.name());
        Path classes = classesOut.resolve(MUTATIONS_DIRECTORY + patch.name());
        deleteTree(sources);
        deleteTree(classes);
        List<Path> mutated = new ArrayList<>();
        for (UnifiedPatch.FilePatch file : patch.files()) {
            mutated.add(writeMutated(patch.name(), file, sources));
        }
        Files.createDirectories(classes);
        compile(patch.name(), mutated, classes);
        Files.write(classes.resolve(TARGETS_FILE),
                patch.files().stream().map(UnifiedPatch.FilePatch::path).toList(), StandardCharsets.UTF_8);
    }

    private Path writeMutated(String name, UnifiedPatch.FilePatch file, Path sources) throws IOException {
        int root = file.path().indexOf(SOURCE_ROOT);
        if (root < 0 || !file.path().endsWith(".java")) {
            throw new PatchException(name, file.path() + " is not a production Java source (MODULE" + SOURCE_ROOT
                    + "...java)");
        }
        Path production = repositoryRoot.resolve(file.path());
        if (!Files.isRegularFile(production)) {
            throw new PatchException(name, "it changes " + file.path() + ", which does not exist (moved or deleted?)"
                    + "; write the mutation again against the class that now holds the code");
        }
        List<String> source = Files.readAllLines(production, StandardCharsets.UTF_8);
        Path out = sources.resolve(file.path().substring(root + SOURCE_ROOT.length()));
        Files.createDirectories(out.getParent());
        Files.write(out, PatchApplier.apply(name, file, source), StandardCharsets.UTF_8);
        return out;
    }

    private static void compile(String name, List<Path> sources, Path classes) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new PatchException(name, "no Java compiler in this runtime: build with a JDK");
        }
        List<String> options = List.of("--release", "17", "-proc:none", "-implicit:none", "-sourcepath", "",
                "-Xlint:all,-processing,-serial", "-classpath", System.getProperty("java.class.path"),
                "-d", classes.toString());
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            boolean compiled = javac.getTask(null, files, null, options, null,
                    files.getJavaFileObjectsFromPaths(sources)).call();
            if (!compiled) {
                throw new PatchException(name, "the mutated sources do not compile (errors above): " + sources);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete " + path, e);
                }
            }
        }
    }
}
