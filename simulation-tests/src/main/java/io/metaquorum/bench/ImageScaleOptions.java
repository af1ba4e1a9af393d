package io.metaquorum.bench;

import static io.metaquorum.bench.BenchArguments.number;
import static io.metaquorum.bench.BenchArguments.value;

import java.nio.file.Path;

/**
 * The options of {@code mq-bench image-scale}.
 *
 * @param partitions         partitions in the image (a multiple of {@code partitionsPerTopic})
 * @param partitionsPerTopic partitions of each topic
 * @param dataDir            where the snapshot file goes (kept); null: a temporary directory, deleted after
 */
record ImageScaleOptions(long partitions, int partitionsPerTopic, Path dataDir, boolean verbose, boolean help) {
    static final String USAGE = String.join("\n",
            "Usage: mq-bench image-scale [--partitions N] [--partitions-per-topic P] [--data-dir DIR] [--verbose]",
            "Replays the log of an image of N partitions (topics of P partitions, RF 3, 6 brokers) through",
            "MetadataDelta, measures the heap it retains after a full GC, writes it as a snapshot file with the",
            "streaming writer, loads it back with the loader and checks that the two images are equal.",
            "  --partitions N            partitions in the image (default 1000000)",
            "  --partitions-per-topic P  partitions per topic (default 50)",
            "  --data-dir DIR            keep the snapshot in DIR/metadata (default: a temporary directory)",
            "  --verbose                 stack traces on failure",
            "Figures: image_heap_bytes, snapshot_write_s, snapshot_load_s, replay_records_per_s.",
            "The heap is MQ_HEAP_OPTS (default -Xms2g -Xmx12g).");

    static ImageScaleOptions parse(String[] args) {
        long partitions = 1_000_000;
        int perTopic = 50;
        Path dataDir = null;
        boolean verbose = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--partitions" -> partitions = number(value(args, ++i, "--partitions"), "--partitions");
                case "--partitions-per-topic" -> perTopic = (int) number(value(args, ++i, "--partitions-per-topic"), "--partitions-per-topic");
                case "--data-dir" -> dataDir = Path.of(value(args, ++i, "--data-dir"));
                case "--verbose" -> verbose = true;
                case "--help", "-h" -> {
                    return new ImageScaleOptions(partitions, perTopic, dataDir, verbose, true);
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (see --help)");
            }
        }
        if (perTopic <= 0 || partitions <= 0 || partitions % perTopic != 0 || partitions / perTopic > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--partitions " + partitions + " must be a positive multiple of "
                    + "--partitions-per-topic " + perTopic);
        }
        return new ImageScaleOptions(partitions, perTopic, dataDir, verbose, false);
    }
}
