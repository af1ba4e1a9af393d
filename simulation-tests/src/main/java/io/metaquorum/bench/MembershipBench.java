package io.metaquorum.bench;

import io.metaquorum.net.HostPort;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * and the latency of the creates that overlapped a change beside those that did not. The
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

    @Override
    public Integer call() throws Exception {
        AdminBenchOptions.requirePositive("--tries", tries);
        if (settleMs < 0) {
            throw new IllegalArgumentException("--settle-ms must be >= 0, got " + settleMs);
        }
        List<HostPort> controllers = Arrays.stream(bootstrapController.split(",")).map(String::trim)
                .filter(t -> !t.isEmpty()).map(HostPort::parse).toList();
        try (AdminBenchSession session = AdminBenchSession.open(options);
             VoterChanges changes = new VoterChanges(controllers, options.security().credentials())) {
            VoterChanges.Voter follower = changes.someFollower();
            System.out.printf("# membership: %d rounds of RemoveVoter then AddVoter of controller %d (directory %s), "
                    + "%d ms apart, while one client creates topics (1 partition, RF 3) one after another%n",
                    tries, follower.id(), follower.directoryBase64(), settleMs);
            CreateLoop creates = new CreateLoop(session);
            Thread loop = new Thread(creates, "membership-creates");
            loop.start();
            List<long[]> changeIntervals = new ArrayList<>();
            List<Double> removeMs = new ArrayList<>();
            List<Double> addMs = new ArrayList<>();
            List<Double> caughtUpMs = new ArrayList<>();
            try {
                for (int i = 0; i < tries; i++) {
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
                            + "%.1f ms after the add was sent%n", i + 1, removeMs.get(i), addMs.get(i),
                            caughtUpMs.get(i));
                }
                Thread.sleep(settleMs);
            } finally {
                creates.stop();
                loop.join();
            }
            creates.rethrow();
            print(removeMs, addMs, caughtUpMs, creates.latencies(), changeIntervals);
            session.delete(creates.created());
        }
        return 0;
    }

    private static void print(List<Double> removeMs, List<Double> addMs, List<Double> caughtUpMs,
                              List<long[]> creates, List<long[]> changes) {
        System.out.println(AdminFigures.ms("membership_remove_commit_ms_median", AdminFigures.median(removeMs)));
        System.out.println(AdminFigures.ms("membership_add_commit_ms_median", AdminFigures.median(addMs)));
        System.out.println(AdminFigures.ms("membership_add_caught_up_ms_median", AdminFigures.median(caughtUpMs)));
        Histogram during = AdminFigures.latencyMicros();
        Histogram outside = AdminFigures.latencyMicros();
        for (long[] create : creates) {
            boolean overlaps = changes.stream().anyMatch(c -> create[0] < c[1] && c[0] < create[1]);
            (overlaps ? during : outside).recordValue(Math.max(0, (create[1] - create[0]) / 1_000));
        }
        for (var entry : List.of(new Object[] {"outside", outside}, new Object[] {"during", during})) {
            String name = (String) entry[0];
            Histogram h = (Histogram) entry[1];
            if (h.getTotalCount() == 0) {
                System.out.println("membership_create_" + name + "_count 0");
                continue;
            }
            System.out.println("membership_create_" + name + "_count " + h.getTotalCount());
            System.out.println(AdminFigures.ms("membership_create_" + name + "_p50_ms",
                    AdminFigures.percentileMs(h, 50)));
            System.out.println(AdminFigures.ms("membership_create_" + name + "_p99_ms",
                    AdminFigures.percentileMs(h, 99)));
            System.out.println(AdminFigures.ms("membership_create_" + name + "_max_ms", AdminFigures.maxMs(h)));
        }
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
