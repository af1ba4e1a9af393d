package io.metaquorum.sim.workload;

import java.util.Random;

/**
 * The client load of one seed.
 *
 * @param meanAppendIntervalMs    mean time between client appends (exponential)
 * @param recordsPerAppendMax     each append carries 1 to this many records
 * @param staleTargetProbability  an append goes to a random running node instead of the leader
 * @param snapshotIntervalRecords a node snapshots every this many applied records; 0 never
 */
public record WorkloadProfile(int meanAppendIntervalMs, int recordsPerAppendMax, double staleTargetProbability,
                              int snapshotIntervalRecords) {
    public static WorkloadProfile draw(Random random) {
        int snapshotInterval = random.nextInt(4) == 0 ? 0 : FaultProfile.between(random, 20, 400);
        return new WorkloadProfile(FaultProfile.between(random, 2, 200), FaultProfile.between(random, 1, 5),
                FaultProfile.uniform(random, 0, 0.2), snapshotInterval);
    }

    public String describe() {
        return String.format("appends every ~%dms, 1-%d records, %.2f to a random node, snapshot every %s records",
                meanAppendIntervalMs, recordsPerAppendMax, staleTargetProbability,
                snapshotIntervalRecords == 0 ? "never" : Integer.toString(snapshotIntervalRecords));
    }
}
