package io.metaquorum.sim.workload;

import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.network.SimNetwork;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.scheduler.EventScheduler;
import java.util.List;
import java.util.Random;

/**
 * The {@link FaultKind#BAD_CERTIFICATE} fault of the safety phase: a node's TLS certificate
 * goes bad (from another CA, expired, missing) and every connection from or to it fails its
 * handshake, through the network every call takes ({@link SimNetwork#breakCertificate}); its
 * process runs on, and is fixed (a rotation) up to the drawn maximum later. It hits the leader
 * with the seed's leader-target probability, else any node, running or not (the certificate is
 * the machine's: a process that starts meanwhile starts with it). One node at a time, so a
 * majority of voters keeps its certificates. Draws from a stream of its own, so that seeds
 * without the fault run as they did before it existed.
 */
final class BadCertificates {
    static final String LABEL = "bad-certificate";

    private final EventScheduler scheduler;
    private final SimNetwork network;
    private final SimCluster cluster;
    private final Random random;
    private final FaultSchedule schedule;
    private final FaultListener listener;
    /** The node whose certificate is bad, or -1. */
    private int badNode = -1;
    private long brokenAtMs;
    private long injected;
    private boolean stopped;

    BadCertificates(EventScheduler scheduler, SimNetwork network, SimCluster cluster, Random random,
                    FaultSchedule schedule, FaultListener listener) {
        this.scheduler = scheduler;
        this.network = network;
        this.cluster = cluster;
        this.random = random;
        this.schedule = schedule;
        this.listener = listener;
    }

    /** How many certificates went bad. */
    long injectedCount() {
        return injected;
    }

    void start() {
        scheduleNext();
    }

    /** Ends the fault for good: a bad certificate is fixed. */
    void stop() {
        stopped = true;
        fix();
    }

    private void scheduleNext() {
        if (schedule.badCertificateMeanIntervalMs() == FaultSchedule.NEVER) {
            return;
        }
        long wait = FaultInjector.exponential(random, schedule.badCertificateMeanIntervalMs());
        scheduler.scheduleAfter(wait, EventKind.FAULT, -1, () -> {
            if (!stopped) {
                breakOne();
                scheduleNext();
            }
        });
    }

    private void breakOne() {
        if (badNode >= 0) {
            return;
        }
        badNode = pickTarget().nodeId();
        injected++;
        brokenAtMs = scheduler.nowMs();
        network.breakCertificate(badNode);
        scheduler.scheduleAfter(1 + (long) (random.nextDouble() * schedule.badCertificateMaxMs()), EventKind.FAULT,
                badNode, this::fix);
    }

    private void fix() {
        if (badNode >= 0) {
            listener.onFault(LABEL, badNode, brokenAtMs, scheduler.nowMs());
            network.fixCertificate(badNode);
            badNode = -1;
        }
    }

    private SimNode pickTarget() {
        if (random.nextDouble() < schedule.leaderTargetProbability() && cluster.leader().isPresent()) {
            return cluster.leader().get();
        }
        List<SimNode> nodes = cluster.nodes();
        return nodes.get(random.nextInt(nodes.size()));
    }
}
