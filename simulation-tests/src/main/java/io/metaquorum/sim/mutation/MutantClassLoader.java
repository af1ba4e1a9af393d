package io.metaquorum.sim.mutation;

import java.io.IOException;
import java.io.InputStream;

/**
 * A class loader in which one production class (of the raft core, the controller or the
 * broker) is replaced by its broken twin (mutation-testing style), so that a checker self-test
 * variant runs the production code with one rule wrong while production code carries no
 * parameter or hook for it.
 *
 * <p>Child-first for the project's classes that link to a replaceable one: the raft core, the
 * metadata layer, the broker, the servers and the simulation ({@code io.metaquorum.*} but the
 * shared packages below): they are defined again here from the parent's class files, so
 * every class that links to the replaced one links to the twin; the twin's bytes come from
 * {@link #TWINS_DIRECTORY} (compiled from {@code src/main/broken-rules} by the pom's
 * {@code compile-broken-rules} execution). Everything else (the JDK, protobuf, the generated
 * protocol, {@code io.metaquorum.common}) and this package are the parent's, shared with the
 * caller: only this package's types and JDK types cross between the two worlds
 * ({@link MutantEntry}, {@link RunOutcome}).
 */
public final class MutantClassLoader extends ClassLoader {
    /** Where, under the class path, the broken twins are; a directory no class path names itself. */
    public static final String TWINS_DIRECTORY = "broken-rules/";
    private static final String ISOLATED_PREFIX = "io.metaquorum.";
    /** The project's packages both worlds share: no twin replaces a class they link to. */
    private static final String[] SHARED_PREFIXES = {"io.metaquorum.common.", "io.metaquorum.protocol.",
        MutantClassLoader.class.getPackageName() + "."};

    private final String replacedClassName;

    /** A world in which {@code replaced} (a production class) is its twin. */
    MutantClassLoader(Class<?> replaced, ClassLoader parent) {
        super("mutant-" + replaced.getSimpleName(), parent);
        this.replacedClassName = replaced.getName();
        if (parent.getResource(resourceOf(replacedClassName, true)) == null) {
            throw new IllegalStateException("no broken twin of " + replacedClassName + " under " + TWINS_DIRECTORY
                    + " on the class path: build simulation-tests with Maven (execution compile-broken-rules)");
        }
    }

    /** Whether {@code type}, as the caller's world links it, is the broken twin. */
    public static boolean isTwin(Class<?> type) {
        return type.getClassLoader() instanceof MutantClassLoader mutant
                && mutant.replacedClassName.equals(type.getName());
    }

    public String replacedClassName() {
        return replacedClassName;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!isIsolated(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = define(name, resourceOf(name, name.equals(replacedClassName)));
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

    private static String resourceOf(String className, boolean twin) {
        return (twin ? TWINS_DIRECTORY : "") + className.replace('.', '/') + ".class";
    }

    private Class<?> define(String name, String resource) throws ClassNotFoundException {
        try (InputStream in = getParent().getResourceAsStream(resource)) {
            if (in == null) {
                throw new ClassNotFoundException(name + " (no " + resource + " on the class path)");
            }
            byte[] bytes = in.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
            throw new ClassNotFoundException(name + " (reading " + resource + ")", e);
        }
    }
}
