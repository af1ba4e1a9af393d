package io.metaquorum.sim.mutation;

import java.io.IOException;
import java.io.InputStream;

/**
 * A world in which the project's classes are defined again, those a mutation changes from the
 * mutation's classes (mutation-testing style), so a checker self-test variant runs production
 * code with a few lines wrong while production code carries no parameter or hook for it. With
 * no mutation it is the control world: the same machinery with nothing swapped, which must run
 * exactly as the caller's world does.
 *
 * <p>Child-first for the project's classes ({@code io.metaquorum.*} but the shared packages
 * below): they are defined again here from the parent's class files, so every class that links
 * to a mutated one links to the mutant; a class the mutation changes (each class compiled from
 * a source its patch names, nested ones included) takes its bytes from
 * {@code mutations/NAME/} on the class path, built from {@code src/mutations/NAME.patch} by
 * {@link MutantCompiler}. Everything else (the JDK, protobuf, the generated protocol,
 * {@code io.metaquorum.common}) and this package are the parent's, shared with the caller: only
 * this package's types and JDK types cross between the two worlds ({@link MutantEntry},
 * {@link RunOutcome}).
 */
public final class MutantClassLoader extends ClassLoader {
    private static final String ISOLATED_PREFIX = "io.metaquorum.";
    /** The project's packages both worlds share: no mutation changes them. */
    private static final String[] SHARED_PREFIXES = {"io.metaquorum.common.", "io.metaquorum.protocol.",
        MutantClassLoader.class.getPackageName() + "."};

    /** The mutation this world runs; null in the control world. */
    private final String mutation;

    /** The world of {@code mutation} (the name of a built patch), or the control world if it is null. */
    MutantClassLoader(String mutation, ClassLoader parent) {
        super(mutation == null ? "mutation-control" : "mutation-" + mutation, parent);
        this.mutation = mutation;
        if (mutation != null && parent.getResource(mutationDirectory() + MutantCompiler.TARGETS_FILE) == null) {
            throw new IllegalStateException("mutation " + mutation + " is not built (no " + mutationDirectory()
                    + MutantCompiler.TARGETS_FILE + " on the class path): is there a src/mutations/" + mutation
                    + ".patch? Build simulation-tests with Maven (phase process-classes)");
        }
    }

    /** The mutation of the world {@code type} is defined in: null in the caller's world and the control world. */
    public static String mutationOf(Class<?> type) {
        return type.getClassLoader() instanceof MutantClassLoader world ? world.mutation : null;
    }

    /** Whether {@code type}'s bytes are its mutation's, not production's. */
    public static boolean isMutated(Class<?> type) {
        return type.getClassLoader() instanceof MutantClassLoader world && world.mutation != null
                && world.getParent().getResource(world.mutationDirectory() + classFile(type.getName())) != null;
    }

    /** Whether {@code type} was defined again by a mutant or control world rather than by the caller's loader. */
    public static boolean isDefinedAgain(Class<?> type) {
        return type.getClassLoader() instanceof MutantClassLoader;
    }

    public String mutation() {
        return mutation;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!isIsolated(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = define(name);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    private static boolean isIsolated(String name) {
        for (String prefix : SHARED_PREFIXES) {
            if (name.startsWith(prefix)) {
                return false;
            }
        }
        return name.startsWith(ISOLATED_PREFIX);
    }

    private String mutationDirectory() {
        return MutantCompiler.MUTATIONS_DIRECTORY + mutation + "/";
    }

    private static String classFile(String className) {
        return className.replace('.', '/') + ".class";
    }

    /** Defines {@code name} from its mutation's bytes if the mutation changes it, else from production's. */
    private Class<?> define(String name) throws ClassNotFoundException {
        String resource = classFile(name);
        InputStream in = mutation == null ? null : getParent().getResourceAsStream(mutationDirectory() + resource);
        if (in == null) {
            in = getParent().getResourceAsStream(resource);
        }
        if (in == null) {
            throw new ClassNotFoundException(name + " (no " + resource + " on the class path)");
        }
        try (InputStream bytesIn = in) {
            byte[] bytes = bytesIn.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
            throw new ClassNotFoundException(name + " (reading " + resource + ")", e);
        }
    }
}
