package io.metaquorum.sim.storage;

/**
 * How a simulated disk misbehaves, drawn per seed.
 *
 * @param syncMinMs             shortest fsync
 * @param syncMaxMs             longest ordinary fsync
 * @param stallProbability      an fsync stalls (a slow or saturated disk) ...
 * @param stallMaxMs            ... by up to this long on top
 * @param writeErrorProbability an append, sync or state write fails with an I/O error; the
 *                              node stops, as the production fault handler would make it
 * @param untidyCrashes         a crash may leave part of the unsynced writes on disk, in
 *                              order (a write-ahead log's prefix), the last one possibly torn
 * @param tornWriteProbability  with untidy crashes: the first write not kept lands torn, and
 *                              recovery must catch it by its CRC
 */
public record DiskProfile(int syncMinMs, int syncMaxMs, double stallProbability, int stallMaxMs,
                          double writeErrorProbability, boolean untidyCrashes, double tornWriteProbability) {
    public DiskProfile {
        if (syncMinMs < 0 || syncMaxMs < syncMinMs || stallMaxMs < 0) {
            throw new IllegalArgumentException("sync latencies must satisfy 0 <= min <= max");
        }
    }

    /** A disk that never fails, syncing in 1-2 ms. */
    public static DiskProfile reliable() {
        return new DiskProfile(1, 2, 0, 0, 0, false, 0);
    }

    /** The same latencies with no failures: what the liveness phase heals to. */
    public DiskProfile healed() {
        return new DiskProfile(syncMinMs, syncMaxMs, 0, 0, 0, untidyCrashes, tornWriteProbability);
    }
}
