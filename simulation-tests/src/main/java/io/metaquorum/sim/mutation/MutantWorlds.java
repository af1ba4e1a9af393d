package io.metaquorum.sim.mutation;

import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One mutant world per replaced class, made on first use and kept, so a self-test variant's
 * seeds share the classes (and the JIT's work) of one world.
 */
public final class MutantWorlds {
    private static final Map<String, MutantEntry> ENTRIES = new LinkedHashMap<>();

    private MutantWorlds() {
    }

    /**
     * The entry of the world in which {@code replaced} is its broken twin: an instance of
     * {@code implementation} (a class of the simulation with a public no-argument constructor),
     * defined inside that world.
     */
    public static synchronized MutantEntry entry(Class<?> replaced, Class<? extends MutantEntry> implementation) {
        String key = replaced.getName() + " " + implementation.getName();
        MutantEntry entry = ENTRIES.get(key);
        if (entry == null) {
            entry = create(new MutantClassLoader(replaced, implementation.getClassLoader()), implementation);
            ENTRIES.put(key, entry);
        }
        return entry;
    }

    private static MutantEntry create(MutantClassLoader loader, Class<? extends MutantEntry> implementation) {
        try {
            // The one reflective step: the simulation's classes inside the world are not the caller's.
            Object instance = loader.loadClass(implementation.getName()).getConstructor().newInstance();
            return (MutantEntry) instance;
        } catch (ClassNotFoundException | NoSuchMethodException | InstantiationException | IllegalAccessException
                 | InvocationTargetException e) {
            throw new IllegalStateException("cannot enter the world in which " + loader.replacedClassName()
                    + " is broken: " + e, e);
        }
    }
}
