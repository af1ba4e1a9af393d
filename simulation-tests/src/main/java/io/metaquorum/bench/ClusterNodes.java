package io.metaquorum.bench;

import io.metaquorum.client.AdminClient;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.server.ProcessSignals;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The controllers of a running mq-quickstart cluster as the failover benchmark handles them:
 * found by their properties files, signalled by the pid in their {@code server.pid} (kill -9,
 * SIGTERM, or SIGSTOP and SIGCONT), and restarted with {@code bin/mq-server} appending to
 * their {@code server.log}.
 */
final class ClusterNodes {
    /** A rejoined node counts as caught up within this many records of the high watermark. */
    private static final long CAUGHT_UP_LAG_MAX = 10;

    private final Map<Integer, Path> configs;
    private final QuorumProbe probe;

    ClusterNodes(Map<Integer, Path> configs, QuorumProbe probe) {
        this.configs = configs;
        this.probe = probe;
    }

    /** kill -9 of the leader: returns {ms to a new leader, ms to the first committed append after it}. */
    long[] measureKill() {
        QuorumProbe.View before = awaitHealthy();
        int leader = before.leaderId();
        ProcessHandle process = processOf(leader);
        long start = System.nanoTime();
        process.destroyForcibly();
        probe.reset(leader);
        long newLeaderNanos = awaitNewLeader(leader, before.epoch()) - start;
        long firstWriteNanos = awaitCommitBeyond(leader, before.highWatermark()) - start;
        awaitExit(process);
        restart(leader);
        return new long[] {TimeUnit.NANOSECONDS.toMillis(newLeaderNanos), TimeUnit.NANOSECONDS.toMillis(firstWriteNanos)};
    }

    /**
     * kill -9 of the leader, then at once a CreateTopics of {@code topic} through {@code admin}
     * (which retries by error class until a new controller answers): returns ms from the kill
     * to the create acknowledged as committed.
     */
    long measureKillThenCreate(AdminClient admin, CreatableTopic topic) {
        QuorumProbe.View before = awaitHealthy();
        int leader = before.leaderId();
        ProcessHandle process = processOf(leader);
        long start = System.nanoTime();
        process.destroyForcibly();
        List<CreatableTopicResult> results = admin.createTopics(List.of(topic), false,
                FailoverBench.STEP_TIMEOUT_MS);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (results.get(0).getErrorCode() != ErrorCode.NONE) {
            throw new IllegalStateException("the create after the kill failed: " + results.get(0).getErrorCode()
                    + ": " + results.get(0).getErrorMessage());
        }
        probe.reset(leader);
        awaitExit(process);
        restart(leader);
        return ms;
    }

    /** SIGTERM of the leader: returns ms to a new leader (the leader resigns with EndQuorumEpoch first). */
    long measureHandoff() {
        QuorumProbe.View before = awaitHealthy();
        int leader = before.leaderId();
        ProcessHandle process = processOf(leader);
        long start = System.nanoTime();
        process.destroy();
        long ms = TimeUnit.NANOSECONDS.toMillis(awaitNewLeader(leader, before.epoch()) - start);
        awaitExit(process);
        probe.reset(leader);
        restart(leader);
        return ms;
    }

    /**
     * SIGSTOP of the leader: returns ms until another node answers DescribeQuorum as the leader
     * of a higher epoch. The old leader stays stopped {@code holdMs} from the stop (longer if
     * no new leader has appeared by then), is continued with SIGCONT, and must then follow the
     * new leader with every node caught up. A shutdown hook continues it should this JVM exit
     * while it is stopped, so the benchmark never leaves a frozen controller behind.
     */
    long measurePause(long holdMs) {
        QuorumProbe.View before = awaitHealthy();
        int leader = before.leaderId();
        long pid = processOf(leader).pid();
        Thread resumeOnExit = new Thread(() -> ProcessSignals.resume(pid), "resume-node-" + leader);
        Runtime.getRuntime().addShutdownHook(resumeOnExit);
        long start = System.nanoTime();
        long ms;
        try {
            ProcessSignals.stop(pid);
            ms = TimeUnit.NANOSECONDS.toMillis(awaitLeaderAnswering(leader, before.epoch()) - start);
            long holdEnd = start + TimeUnit.MILLISECONDS.toNanos(holdMs);
            for (long left = holdEnd - System.nanoTime(); left > 0; left = holdEnd - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        } finally {
            ProcessSignals.resume(pid);
            Runtime.getRuntime().removeShutdownHook(resumeOnExit);
        }
        awaitHealthy();
        return ms;
    }

    /**
     * Waits until every node runs again, answers, follows the leader and has caught up, so
     * the cluster is left as it was found (and its pid files name the processes that run).
     * The leader's lag figures alone are not enough: it keeps a restarted node's end offset
     * from before the restart until that node fetches again.
     */
    QuorumProbe.View awaitHealthy() {
        long deadline = FailoverBench.stepDeadline();
        while (System.nanoTime() < deadline) {
            Optional<QuorumProbe.View> view = probe.leaderView(-1);
            if (view.isPresent() && view.get().maxLag() <= CAUGHT_UP_LAG_MAX && allRunning()
                    && allFollow(view.get())) {
                return view.get();
            }
            FailoverBench.pause();
        }
        throw new IllegalStateException("the quorum did not become healthy (a leader and every voter caught up)");
    }

    private long awaitNewLeader(int oldLeader, int oldEpoch) {
        long deadline = FailoverBench.stepDeadline();
        while (System.nanoTime() < deadline) {
            for (int id : configs.keySet()) {
                if (id == oldLeader) {
                    continue;
                }
                Optional<QuorumProbe.View> view = probe.ask(id);
                if (view.isPresent() && view.get().epoch() > oldEpoch && view.get().leaderId() >= 0
                        && view.get().leaderId() != oldLeader) {
                    return System.nanoTime();
                }
            }
            FailoverBench.pause();
        }
        throw new IllegalStateException("no new leader within " + FailoverBench.stepDeadline());
    }

    /** Waits until a node other than {@code oldLeader} answers DescribeQuorum as the leader of a later epoch. */
    private long awaitLeaderAnswering(int oldLeader, int oldEpoch) {
        long deadline = FailoverBench.stepDeadline();
        while (System.nanoTime() < deadline) {
            for (int id : configs.keySet()) {
                Optional<QuorumProbe.View> view = id == oldLeader ? Optional.empty() : probe.ask(id);
                if (view.isPresent() && view.get().fromLeader() && view.get().epoch() > oldEpoch) {
                    return System.nanoTime();
                }
            }
            FailoverBench.pause();
        }
        throw new IllegalStateException("no other node answered as the leader of an epoch after " + oldEpoch
                + " within " + FailoverBench.STEP_TIMEOUT_MS + " ms of node " + oldLeader + "'s SIGSTOP");
    }

    private long awaitCommitBeyond(int oldLeader, long highWatermark) {
        long deadline = FailoverBench.stepDeadline();
        while (System.nanoTime() < deadline) {
            Optional<QuorumProbe.View> view = probe.leaderView(oldLeader);
            if (view.isPresent() && view.get().highWatermark() > highWatermark) {
                return System.nanoTime();
            }
            FailoverBench.pause();
        }
        throw new IllegalStateException("the new leader committed nothing");
    }

    private boolean allFollow(QuorumProbe.View leader) {
        for (int id : configs.keySet()) {
            Optional<QuorumProbe.View> view = probe.ask(id);
            if (view.isEmpty() || view.get().leaderId() != leader.leaderId() || view.get().epoch() != leader.epoch()) {
                return false;
            }
        }
        return true;
    }

    private boolean allRunning() {
        for (int id : configs.keySet()) {
            if (pidOf(id).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private ProcessHandle processOf(int nodeId) {
        return NodeProcesses.processOf(configs.get(nodeId));
    }

    private Optional<Long> pidOf(int nodeId) {
        return NodeProcesses.pidOf(configs.get(nodeId));
    }

    private static void awaitExit(ProcessHandle process) {
        NodeProcesses.awaitExit(process);
    }

    private void restart(int nodeId) {
        NodeProcesses.start(configs.get(nodeId));
    }
}
