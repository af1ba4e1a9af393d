package io.metaquorum.bench;

import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.AdminMethod;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.Forwarding;
import io.metaquorum.node.admin.NodeRequests;
import io.metaquorum.node.controller.ObserverGateway;
import io.metaquorum.protocol.DescribeTopicsCursor;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.ErrorCode;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code mq-bench describe-scale [--partitions N] [--partitions-per-topic P] [--page-partitions L]
 * [--walks W]}: a describe of every topic of a large image, in process, through the node's
 * real admin path ({@link AdminRequests#describeTopics}: edge checks, then the converter) over
 * an image replayed as {@code image-scale} does (RF 3, 6 brokers), read as a broker reads it
 * ({@link ObserverGateway}). Walks the whole image page by page {@code W} times and reports,
 * over the pages of the last walk, the time per page and the page's encoded size; one more
 * walk measures the heap each page retains (a full GC before and with it); then the unpaged
 * describe of the same image as often (the last one timed, one more for its heap), for
 * comparison. No network: the figures are the node's work per page.
 *
 * <p>Prints {@code describe_page_p50_ms}, {@code describe_page_max_ms},
 * {@code describe_page_response_max_bytes}, {@code describe_paged_walk_ms},
 * {@code describe_page_heap_max_bytes}, {@code describe_unpaged_ms}, {@code describe_unpaged_heap_bytes}.
 */
public final class DescribeScaleWorkload {
    private static final int BROKERS = 6;
    private static final int BATCH_RECORDS = 1_000;

    private DescribeScaleWorkload() {
    }

    /** The options; all positive. */
    record Options(long partitions, int partitionsPerTopic, int pagePartitions, int walks) {
        static Options parse(String[] args) {
            long partitions = 1_000_000;
            int perTopic = 10;
            int page = 10_000;
            int walks = 3;
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : "";
                switch (args[i]) {
                    case "--partitions" -> partitions = Long.parseLong(value);
                    case "--partitions-per-topic" -> perTopic = Integer.parseInt(value);
                    case "--page-partitions" -> page = Integer.parseInt(value);
                    case "--walks" -> walks = Integer.parseInt(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i] + "; options: "
                            + "--partitions N --partitions-per-topic P --page-partitions L --walks W");
                }
                i++;
            }
            if (partitions < 1 || perTopic < 1 || page < 1 || walks < 1) {
                throw new IllegalArgumentException("every option must be >= 1");
            }
            return new Options(partitions, perTopic, page, walks);
        }
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("mq-bench describe-scale: " + e.getMessage());
            System.exit(2);
            return;
        }
        int topics = (int) (options.partitions() / options.partitionsPerTopic());
        ImageScaleRecords log = new ImageScaleRecords(BROKERS, topics, options.partitionsPerTopic(), BATCH_RECORDS);
        MetadataLoader loader = new MetadataLoader("", Long.MAX_VALUE, task -> false);
        ImageScaleWorkload.replay(loader, log);
        System.out.printf("# %,d partitions: %,d topics x %d, RF 3; pages of %,d partitions; max heap %,d MiB%n",
                (long) topics * options.partitionsPerTopic(), topics, options.partitionsPerTopic(),
                options.pagePartitions(), Runtime.getRuntime().maxMemory() >> 20);
        AdminRequests admin = NodeRequests.create(new ObserverGateway(1, loader, () -> -1), new NoForwarding(),
                "bench", NodeAccess.DISABLED).admin();
        List<PageCost> pages = new ArrayList<>();
        double walkMs = 0;
        for (int walk = 0; walk < options.walks(); walk++) {
            pages.clear();
            long start = System.nanoTime();
            walk(admin, options.pagePartitions(), page -> pages.add(PageCost.of(page)));
            walkMs = (System.nanoTime() - start) / 1e6;
            System.out.printf(Locale.ROOT, "# walk %d: %d pages in %.1f ms%n", walk + 1, pages.size(), walkMs);
        }
        List<Double> times = new ArrayList<>(pages.stream().map(PageCost::ms).toList());
        Collections.sort(times);
        System.out.printf(Locale.ROOT, "describe_page_p50_ms %.3f ms%n", times.get(times.size() / 2));
        System.out.printf(Locale.ROOT, "describe_page_max_ms %.3f ms%n", times.get(times.size() - 1));
        System.out.printf("describe_page_response_max_bytes %d bytes%n",
                pages.stream().mapToLong(PageCost::responseBytes).max().orElse(0));
        System.out.printf(Locale.ROOT, "describe_paged_walk_ms %.1f ms%n", walkMs);
        System.out.printf("describe_page_heap_max_bytes %d bytes%n", heapPerPageMax(admin, options.pagePartitions()));
        double unpagedMs = 0;
        for (int walk = 0; walk < options.walks(); walk++) {
            long start = System.nanoTime();
            admin.describeTopics(DescribeTopicsRequest.getDefaultInstance(), CallOrigin.CLIENT);
            unpagedMs = (System.nanoTime() - start) / 1e6;
        }
        System.out.printf(Locale.ROOT, "describe_unpaged_ms %.1f ms%n", unpagedMs);
        long heapBefore = PersistentMapBench.usedHeapAfterGc();
        DescribeTopicsResponse all = admin.describeTopics(DescribeTopicsRequest.getDefaultInstance(),
                CallOrigin.CLIENT);
        System.out.printf("describe_unpaged_heap_bytes %d bytes%n", PersistentMapBench.usedHeapAfterGc() - heapBefore);
        System.out.printf("# unpaged response: %,d topics, %,d bytes encoded%n", all.getTopicsCount(),
                all.getSerializedSize());
    }

    /** One page's time and encoded size. */
    record PageCost(double ms, long responseBytes) {
        static PageCost of(TimedPage page) {
            return new PageCost(page.ms(), page.response().getSerializedSize());
        }
    }

    /** A page and the time the node took to answer it. */
    record TimedPage(double ms, DescribeTopicsResponse response) {
    }

    /**
     * One more walk, untimed, with a full GC before each page and another while the page is
     * held: the most heap one page retained (what a node holds per request while it sends).
     */
    private static long heapPerPageMax(AdminRequests admin, int pagePartitions) {
        long max = 0;
        DescribeTopicsRequest.Builder request = DescribeTopicsRequest.newBuilder()
                .setResponsePartitionLimit(pagePartitions);
        DescribeTopicsCursor next;
        do {
            long before = PersistentMapBench.usedHeapAfterGc();
            DescribeTopicsResponse page = admin.describeTopics(request.build(), CallOrigin.CLIENT);
            max = Math.max(max, PersistentMapBench.usedHeapAfterGc() - before);
            next = page.hasNextCursor() ? page.getNextCursor() : null;
            Reference.reachabilityFence(page);
            if (next != null) {
                request.setCursor(next);
            }
        } while (next != null);
        return max;
    }

    private static void walk(AdminRequests admin, int pagePartitions, Consumer<TimedPage> onPage) {
        DescribeTopicsRequest.Builder request = DescribeTopicsRequest.newBuilder()
                .setResponsePartitionLimit(pagePartitions);
        while (true) {
            DescribeTopicsRequest sent = request.build();
            long start = System.nanoTime();
            DescribeTopicsResponse response = admin.describeTopics(sent, CallOrigin.CLIENT);
            TimedPage page = new TimedPage((System.nanoTime() - start) / 1e6, response);
            if (response.getHeader().getErrorCode() != ErrorCode.NONE) {
                throw new IllegalStateException(response.getHeader().getErrorMessage());
            }
            onPage.accept(page);
            if (!response.hasNextCursor()) {
                return;
            }
            request.setCursor(response.getNextCursor());
        }
    }

    /** Reads are never forwarded. */
    private static final class NoForwarding implements Forwarding {
        @Override
        public boolean canForwardTo(int controllerId) {
            return false;
        }

        @Override
        public <Q, R> void forward(int controllerId, AdminMethod<Q, R> method, Q request, long waitMs,
                CallOrigin origin, Consumer<R> onAnswer, Consumer<Throwable> onFailure) {
            onFailure.accept(new IllegalStateException("describe-scale forwards nothing"));
        }
    }
}
