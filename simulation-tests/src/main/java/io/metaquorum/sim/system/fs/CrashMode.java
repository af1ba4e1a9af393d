package io.metaquorum.sim.system.fs;

/** What survives a crash of a {@link SimFileSystem} of what was never synced. */
public enum CrashMode {
    /** Nothing: every unsynced directory entry and file write is lost (the strictest reading of POSIX). */
    LOSE_ALL_UNSYNCED,
    /**
     * A seeded random part: per directory, a prefix of its unsynced entry changes (each rename
     * whole or not at all); per file, the synced content or a prefix of the unsynced content
     * (a torn write).
     */
    KEEP_RANDOM_PREFIX
}
