package io.metaquorum.sim.workload;

import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.network.LinkTable;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.List;
import java.util.Random;

/**
 * The silent failures of the safety phase: a paused process ({@link FaultKind#PAUSE}, SIGSTOP
 * then SIGCONT) and a black-holed node ({@link FaultKind#BLACK_HOLE}). Neither resets a
 * connection, so peers learn of them only through their deadlines. Each hits the leader with
 * the seed's leader-target probability, else any running node; at most one pause and one
 * black hole at a time, each lasting up to the drawn maximum. Draws from a stream of its own
 * so that seeds without silent faults run as they did before these existed.
 */
final class SilentFaults {
    private final EventScheduler scheduler;
    private final LinkTable links;
    private final SimCluster cluster;
    private final Random random;
    private final FaultSchedule schedule;
    private final FaultListener listener;
    private SimNode paused;
    private long pausedAtMs;
    private int blackHoled = -1;
    private long blackHoledAtMs;
    private long injected;
    private boolean stopped;

    SilentFaults(EventScheduler scheduler, LinkTable links, SimCluster cluster, Random random, FaultSchedule schedule,
                 FaultListener listener) {
        this.scheduler = scheduler;
        this.links = links;
        this.cluster = cluster;
        this.random = random;
        this.schedule = schedule;
        this.listener = listener;
    }

    /** How many pauses and black holes were injected. */
    long injectedCount() {
        return injected;
    }

    void start() {
        every(schedule.pauseMeanIntervalMs(), this::pauseOne);
        every(schedule.blackHoleMeanIntervalMs(), this::blackHoleOne);
    }

    /** Ends both faults for good: the paused process resumes, the black-holed node is restored. */
    void stop() {
        stopped = true;
        resume();
        restore();
    }

    private void every(long meanIntervalMs, Runnable fault) {
        if (meanIntervalMs == FaultSchedule.NEVER) {
            return;
        }
        scheduler.scheduleAfter(FaultInjector.exponential(random, meanIntervalMs), EventKind.FAULT, -1, () -> {
            if (!stopped) {
                fault.run();
                every(meanIntervalMs, fault);
            }
        });
    }

    private void pauseOne() {
        if (paused != null) {
            return;
        }
        SimNode target = pickTarget();
        if (target == null) {
            return;
        }
        paused = target;
        injected++;
        pausedAtMs = scheduler.nowMs();
        target.pause();
        scheduler.scheduleAfter(1 + (long) (random.nextDouble() * schedule.pauseMaxMs()), EventKind.FAULT,
                target.nodeId(), this::resume);
    }

    private void resume() {
        if (paused != null) {
            listener.onFault("pause", paused.nodeId(), pausedAtMs, scheduler.nowMs());
            paused.resume();
            paused = null;
        }
    }

    private void blackHoleOne() {
        if (blackHoled >= 0) {
            return;
        }
        SimNode target = pickTarget();
        if (target == null) {
            return;
        }
        blackHoled = target.nodeId();
        injected++;
        blackHoledAtMs = scheduler.nowMs();
        links.blackHole(blackHoled);
        scheduler.scheduleAfter(1 + (long) (random.nextDouble() * schedule.blackHoleMaxMs()), EventKind.FAULT,
                blackHoled, this::restore);
    }

    private void restore() {
        if (blackHoled >= 0) {
            listener.onFault("black-hole", blackHoled, blackHoledAtMs, scheduler.nowMs());
            links.restore(blackHoled);
            blackHoled = -1;
        }
    }

    private SimNode pickTarget() {
        if (random.nextDouble() < schedule.leaderTargetProbability() && cluster.leader().isPresent()) {
            return cluster.leader().get();
        }
        List<SimNode> running = cluster.running();
        return running.isEmpty() ? null : running.get(random.nextInt(running.size()));
    }
}
