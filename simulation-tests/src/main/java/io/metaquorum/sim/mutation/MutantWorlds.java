package io.metaquorum.sim.mutation;

import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One world per mutation, and one control world, made on first use and kept, so a self-test
 * variant's seeds share the classes (and the JIT's work) of one world.
 */
public final class MutantWorlds {
    private static final Map<String, MutantEntry> ENTRIES = new LinkedHashMap<>();

    private MutantWorlds() {
    }

    /**
     * The entry of the world running {@code mutation} (a built patch's name): an instance of
     * {@code implementation} (a class of the simulation with a public no-argument constructor),
     * defined inside that world.
     */
    public static MutantEntry entry(String mutation, Class<? extends MutantEntry> implementation) {
        if (mutation == null) {
            throw new IllegalArgumentException("no mutation named: the world with none swapped is control()");
        }
        return world(mutation, implementation);
    }

    /** The entry of the control world: every project class defined again by the same machinery, none swapped. */
    public static MutantEntry control(Class<? extends MutantEntry> implementation) {
        return world(null, implementation);
    }

    private static synchronized MutantEntry world(String mutation, Class<? extends MutantEntry> implementation) {
        String key = mutation + " " + implementation.getName();
        MutantEntry entry = ENTRIES.get(key);
        if (entry == null) {
            entry = create(new MutantClassLoader(mutation, implementation.getClassLoader()), implementation);
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
            throw new IllegalStateException("cannot enter the world " + loader.getName() + ": " + e, e);
        }
    }
}
