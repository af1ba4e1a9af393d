package io.metaquorum.sim.workload;

/**
 * How often the discrete faults of a seed strike and how hard. A mean interval of
 * {@link Long#MAX_VALUE} means never.
 *
 * @param partitionHealthyMeanMs  mean stability period between partitions
 * @param partitionMeanMs         mean duration of a partition
 * @param crashMeanIntervalMs     mean time between crashes anywhere in the cluster
 * @param downtimeMaxMs           a stopped node restarts after up to this long
 * @param leaderTargetProbability a crash, shutdown or partition picks the leader with this probability
 * @param shutdownMeanIntervalMs  mean time between graceful restarts
 * @param resignMeanIntervalMs    mean time between leader handoffs
 * @param wipeMeanIntervalMs      mean time between disk wipes
 * @param clockJumpMeanIntervalMs mean time between forward clock jumps
 * @param clockJumpMaxMs          the largest forward jump
 * @param driftPpmMax             each node's clock drifts by up to this rate, either way
 * @param skewMaxMs               each node's clock is offset by up to this much
 * @param pauseMeanIntervalMs     mean time between process pauses (one at a time)
 * @param pauseMaxMs              a pause lasts up to this long
 * @param blackHoleMeanIntervalMs mean time between black-holed nodes (one at a time)
 * @param blackHoleMaxMs          a node stays black-holed up to this long
 * @param badCertificateMeanIntervalMs mean time between certificates going bad (one node at a time)
 * @param badCertificateMaxMs     a certificate stays bad up to this long
 */
public record FaultSchedule(long partitionHealthyMeanMs, long partitionMeanMs, long crashMeanIntervalMs,
                            long downtimeMaxMs, double leaderTargetProbability, long shutdownMeanIntervalMs,
                            long resignMeanIntervalMs, long wipeMeanIntervalMs, long clockJumpMeanIntervalMs,
                            long clockJumpMaxMs, int driftPpmMax, long skewMaxMs,
                            long pauseMeanIntervalMs, long pauseMaxMs, long blackHoleMeanIntervalMs,
                            long blackHoleMaxMs, long badCertificateMeanIntervalMs, long badCertificateMaxMs) {
    public static final long NEVER = Long.MAX_VALUE;

    /** This schedule with the bad-certificate fault's rate and duration replaced. */
    FaultSchedule withBadCertificates(long meanIntervalMs, long maxMs) {
        return new FaultSchedule(partitionHealthyMeanMs, partitionMeanMs, crashMeanIntervalMs, downtimeMaxMs,
                leaderTargetProbability, shutdownMeanIntervalMs, resignMeanIntervalMs, wipeMeanIntervalMs,
                clockJumpMeanIntervalMs, clockJumpMaxMs, driftPpmMax, skewMaxMs, pauseMeanIntervalMs, pauseMaxMs,
                blackHoleMeanIntervalMs, blackHoleMaxMs, meanIntervalMs, maxMs);
    }
}
