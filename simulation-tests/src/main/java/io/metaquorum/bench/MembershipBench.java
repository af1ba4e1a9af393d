package io.metaquorum.bench;

import io.metaquorum.net.HostPort;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench membership}: on a running cluster (bin/mq-quickstart), while one client creates
 * topics one after another, takes a follower controller out of the voter set (RemoveVoter) and
 * adds it back (AddVoter, the same node and directory: it stayed running as an observer and is
 * caught up), {@code --tries} times, {@code --settle-ms} apart. Prints the time each change took
 * to commit (the answer to the request: from then on the voter counts toward commits, or no
 * longer does), the time until the leader reports the added voter holding its high watermark,
 * and the latency of the creates that overlapped a change beside those that did not. Then
 * (unless {@code --no-remove-leader}) the same number of rounds removes the leader itself,
 * which resigns once the change commits, and times the election that follows, to compare with
 * {@code mq-bench failover}. The
 * connection to the leader is open before each timed change. While the follower is out, two
 * voters remain and a commit needs both, so creates are slower then too: that shows in the
 * "outside" figures, not in "during".
 */
@Command(name = "membership", mixinStandardHelpOptions = true,
        description = "Voter changes (RemoveVoter, then AddVoter of the same controller) on a running cluster "
                + "under a create workload: time to commit each change, and its effect on create latency.")
final class MembershipBench implements Callable<Integer> {
    @Mixin
    AdminBenchOptions options = new AdminBenchOptions();

    @Option(names = "--bootstrap-controller", required = true, paramLabel = "H:P[,H:P...]",
            description = "the controllers' listeners (DescribeQuorum, AddVoter and RemoveVoter go there)")
    String bootstrapController;

    @Option(names = "--tries", description = "remove-then-add rounds (default 5)")
    int tries = 5;

    @Option(names = "--settle-ms", description = "pause before each change, creates going on (default 2000)")
    long settleMs = 2_000;

    @Option(names = "--remove-leader", negatable = true, description = "then, --tries times, remove the leader "
            + "itself (it resigns once the change commits), time the election, and add it back (default: on)")
    boolean removeLeader = true;

    @Override
    public Integer call() throws Exception {
        AdminBenchOptions.requirePositive("--tries", tries);
        if (settleMs < 0) {
            throw new IllegalArgumentException("--settle-ms must be >= 0, got " + settleMs);
        }
        List<HostPort> controllers = Arrays.stream(bootstrapController.split(",")).map(String::trim)
                .filter(t -> !t.isEmpty()).map(HostPort::parse).toList();
        try (AdminBenchSession session = AdminBenchSession.open(options);
             VoterChanges changes = new VoterChanges(controllers, options.security().credentials());
             QuorumProbe probe = new QuorumProbe(changes.controllerAddresses(), options.security().credentials())) {
            VoterChanges.Voter follower = changes.someFollower();
            System.out.printf("# membership: %d rounds of RemoveVoter then AddVoter of controller %d (directory %s), "
                    + "%d ms apart, while one client creates topics (1 partition, RF 3) one after another%n",
                    tries, follower.id(), follower.directoryBase64(), settleMs);
            CreateLoop creates = new CreateLoop(session);
            Thread loop = new Thread(creates, "membership-creates");
            loop.start();
            Rounds rounds = new Rounds();
            try {
                for (int i = 0; i < tries; i++) {
                    rounds.followerRound(changes, follower, i);
                }
                for (int i = 0; removeLeader && i < tries; i++) {
                    rounds.leaderRound(changes, probe, i);
                }
                Thread.sleep(settleMs);
            } finally {
                creates.stop();
                loop.join();
            }
            creates.rethrow();
            rounds.print(creates.latencies());
            session.deleteAll(creates.created());
        }
        return 0;
    }

    /** The timed changes and what each took. */
    private final class Rounds {
        private final List<long[]> changeIntervals = new ArrayList<>();
        private final List<Double> removeMs = new ArrayList<>();
        private final List<Double> addMs = new ArrayList<>();
        private final List<Double> caughtUpMs = new ArrayList<>();
        private final List<Double> leaderRemoveMs = new ArrayList<>();
        private final List<Double> newLeaderMs = new ArrayList<>();

        /** RemoveVoter of {@code follower}, then AddVoter of it, each after {@code --settle-ms}. */
        void followerRound(VoterChanges changes, VoterChanges.Voter follower, int round) throws InterruptedException {
            Thread.sleep(settleMs);
            changes.connectToLeader();
            long start = System.nanoTime();
            changes.remove(follower);
            long removed = System.nanoTime();
            changeIntervals.add(new long[] {start, removed});
            removeMs.add((removed - start) / 1e6);
            Thread.sleep(settleMs);
            changes.connectToLeader();
            start = System.nanoTime();
            changes.add(follower);
            long added = System.nanoTime();
            changes.awaitVoterCaughtUp(follower);
            long caughtUp = System.nanoTime();
            changeIntervals.add(new long[] {start, added});
            addMs.add((added - start) / 1e6);
            caughtUpMs.add((caughtUp - start) / 1e6);
            System.out.printf("# round %d: remove %.1f ms, add %.1f ms, added voter at the high watermark "
                    + "%.1f ms after the add was sent%n", round + 1, removeMs.get(round), addMs.get(round),
                    caughtUpMs.get(round));
        }

        /** RemoveVoter of the leader itself, the election that follows, then AddVoter of it again. */
        void leaderRound(VoterChanges changes, QuorumProbe probe, int round) throws InterruptedException {
            Thread.sleep(settleMs);
            VoterChanges.Leading leading = changes.leader();
            changes.connectToLeader();
            long start = System.nanoTime();
            changes.remove(leading.voter());
            long committed = System.nanoTime();
            awaitNewLeader(probe, leading);
            long elected = System.nanoTime();
            changeIntervals.add(new long[] {start, elected});
            leaderRemoveMs.add((committed - start) / 1e6);
            newLeaderMs.add((elected - committed) / 1e6);
            System.out.printf("# leader round %d: RemoveVoter of the leader %d committed in %.1f ms, a new leader "
                    + "%.1f ms later%n", round + 1, leading.voter().id(), leaderRemoveMs.get(round),
                    newLeaderMs.get(round));
            Thread.sleep(settleMs);
            changes.add(leading.voter());
            changes.awaitVoterCaughtUp(leading.voter());
        }

        void print(List<long[]> creates) {
            System.out.println(AdminFigures.ms("membership_remove_commit_ms_median", AdminFigures.median(removeMs)));
            System.out.println(AdminFigures.ms("membership_add_commit_ms_median", AdminFigures.median(addMs)));
            System.out.println(AdminFigures.ms("membership_add_caught_up_ms_median",
                    AdminFigures.median(caughtUpMs)));
            if (!newLeaderMs.isEmpty()) {
                System.out.println(AdminFigures.ms("membership_leader_remove_commit_ms_median",
                        AdminFigures.median(leaderRemoveMs)));
                System.out.println(AdminFigures.ms("membership_leader_removed_to_new_leader_ms_median",
                        AdminFigures.median(newLeaderMs)));
                System.out.println(AdminFigures.ms("membership_leader_removed_to_new_leader_ms_max",
                        newLeaderMs.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
            }
            Histogram during = AdminFigures.latencyMicros();
            Histogram outside = AdminFigures.latencyMicros();
            for (long[] create : creates) {
                boolean overlaps = changeIntervals.stream().anyMatch(c -> create[0] < c[1] && c[0] < create[1]);
                (overlaps ? during : outside).recordValue(Math.max(0, (create[1] - create[0]) / 1_000));
            }
            printCreates("outside", outside);
            printCreates("during", during);
        }
    }

    private static void printCreates(String name, Histogram h) {
        System.out.println("membership_create_" + name + "_count " + h.getTotalCount());
        if (h.getTotalCount() > 0) {
            System.out.println(AdminFigures.ms("membership_create_" + name + "_p50_ms", AdminFigures.percentileMs(h, 50)));
            System.out.println(AdminFigures.ms("membership_create_" + name + "_p99_ms", AdminFigures.percentileMs(h, 99)));
            System.out.println(AdminFigures.ms("membership_create_" + name + "_max_ms", AdminFigures.maxMs(h)));
        }
    }

    /** Polls until a controller other than the removed leader answers as the leader of a later epoch. */
    private static void awaitNewLeader(QuorumProbe probe, VoterChanges.Leading removed) {
        long deadline = FailoverBench.stepDeadline();
        while (System.nanoTime() < deadline) {
            Optional<QuorumProbe.View> view = probe.leaderView(removed.voter().id());
            if (view.isPresent() && view.get().epoch() > removed.epoch()) {
                return;
            }
            FailoverBench.pause();
        }
        throw new IllegalStateException("no new leader within " + FailoverBench.STEP_TIMEOUT_MS
                + " ms of removing leader " + removed.voter().id());
    }

    /** One client's creates, one after another, each timed from send to committed answer. */
    private static final class CreateLoop implements Runnable {
        private final AdminBenchSession session;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<long[]> latencies = new ArrayList<>();
        private final List<String> created = new ArrayList<>();
        private volatile RuntimeException failure;

        CreateLoop(AdminBenchSession session) {
            this.session = session;
        }

        @Override
        public void run() {
            try {
                for (int i = 0; !stop.get(); i++) {
                    String name = session.topicName("membership", i);
                    long start = System.nanoTime();
                    session.create(List.of(AdminBenchSession.topic(name, 1, 3)));
                    long end = System.nanoTime();
                    synchronized (this) {
                        latencies.add(new long[] {start, end});
                        created.add(name);
                    }
                }
            } catch (RuntimeException e) {
                failure = e;
            }
        }

        void stop() {
            stop.set(true);
        }

        void rethrow() {
            if (failure != null) {
                throw failure;
            }
        }

        synchronized List<long[]> latencies() {
            return List.copyOf(latencies);
        }

        synchronized List<String> created() {
            return List.copyOf(created);
        }
    }
}
