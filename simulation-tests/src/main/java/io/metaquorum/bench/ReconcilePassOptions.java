package io.metaquorum.bench;

import static io.metaquorum.bench.BenchArguments.number;
import static io.metaquorum.bench.BenchArguments.value;

import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code mq-bench reconcile-pass}.
 *
 * @param partitions         the image sizes to measure at, in partitions (each a multiple of
 *                           {@code partitionsPerTopic})
 * @param partitionsPerTopic partitions of each topic, also of the one each pass applies
 * @param brokers            brokers the replicas are spread over (RF 3); the bench is broker 0
 * @param warmupPasses       unmeasured passes at each size before the measured ones
 * @param passes             measured passes at each size
 */
record ReconcilePassOptions(List<Long> partitions, int partitionsPerTopic, int brokers, int warmupPasses, int passes,
                            boolean verbose, boolean help) {
    /** Sizes above this are refused: the image and the directories must fit the bench's heap. */
    static final long PARTITIONS_MAX = 10_000_000;

    static final String USAGE = String.join("\n",
            "Usage: mq-bench reconcile-pass [--partitions N,N,...] [--partitions-per-topic P] [--brokers B]",
            "                               [--warmup W] [--passes K] [--verbose]",
            "For each N: replays the log of an image of N partitions (topics of P partitions, RF 3 over B brokers)",
            "into a MetadataLoader, lets the broker's partition reconciler (over log dirs kept on the heap, no disk)",
            "create broker 0's directories, then commits one new topic of P partitions at a time and times the",
            "reconcile pass that applies it (the topic is removed again by an unmeasured commit and pass, so the",
            "image keeps its size): W passes of warm-up, then K measured.",
            "  --partitions N,N,...      image sizes (default 10000,100000,1000000)",
            "  --partitions-per-topic P  partitions per topic (default 10)",
            "  --brokers B               brokers (default 6: broker 0 holds half of the partitions)",
            "  --warmup W                unmeasured passes per size (default 20000)",
            "  --passes K                measured passes per size (default 10000)",
            "  --verbose                 stack traces on failure",
            "Figures per size N: reconcile_pass_mean_us_N, reconcile_pass_p50_us_N, reconcile_pass_p99_us_N.",
            "The heap is MQ_HEAP_OPTS (default -Xms1g -Xmx3g).");

    static ReconcilePassOptions parse(String[] args) {
        List<Long> partitions = List.of(10_000L, 100_000L, 1_000_000L);
        int perTopic = 10;
        int brokers = 6;
        int warmup = 20_000;
        int passes = 10_000;
        boolean verbose = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--partitions" -> partitions = numbers(value(args, ++i, "--partitions"));
                case "--partitions-per-topic" -> perTopic = (int) number(value(args, ++i, "--partitions-per-topic"),
                        "--partitions-per-topic");
                case "--brokers" -> brokers = (int) number(value(args, ++i, "--brokers"), "--brokers");
                case "--warmup" -> warmup = (int) number(value(args, ++i, "--warmup"), "--warmup");
                case "--passes" -> passes = (int) number(value(args, ++i, "--passes"), "--passes");
                case "--verbose" -> verbose = true;
                case "--help", "-h" -> {
                    return new ReconcilePassOptions(partitions, perTopic, brokers, warmup, passes, verbose, true);
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (see --help)");
            }
        }
        if (perTopic <= 0 || brokers < 3 || warmup < 0 || passes <= 0) {
            throw new IllegalArgumentException("--partitions-per-topic and --passes must be > 0, --warmup >= 0, "
                    + "--brokers >= 3 (RF 3)");
        }
        for (long n : partitions) {
            if (n <= 0 || n % perTopic != 0 || n > PARTITIONS_MAX) {
                throw new IllegalArgumentException("--partitions " + n + " must be a positive multiple of "
                        + "--partitions-per-topic " + perTopic + ", at most " + PARTITIONS_MAX);
            }
        }
        return new ReconcilePassOptions(partitions, perTopic, brokers, warmup, passes, verbose, false);
    }

    private static List<Long> numbers(String text) {
        List<Long> numbers = new ArrayList<>();
        for (String each : text.split(",")) {
            numbers.add(number(each.strip(), "--partitions"));
        }
        return List.copyOf(numbers);
    }
}
