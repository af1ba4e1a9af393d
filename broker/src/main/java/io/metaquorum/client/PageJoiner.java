package io.metaquorum.client;

import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.DescribedTopic;
import java.util.List;
import java.util.function.Consumer;

/**
 * Turns the pages of a paged describe of every topic back into whole topics, in name order:
 * a page may stop inside a topic (its {@code next_cursor} names the topic at a partition
 * index above 0), and the next page starts with the rest of it. Holds at most that one open
 * topic between pages.
 *
 * <p>Pages may come from different images. A topic that was cut and whose rest does not come
 * first on the next page (same name, same id, the next partition index) was deleted, or
 * deleted and created again, between the two pages: its first part is dropped, and so is the
 * rest that came instead (a piece starting above partition 0 that continues nothing), so a
 * topic is only ever handed on whole, as one image holds it.
 *
 * <p>Invariant: {@code open} is null, or the topic the last page ended inside, with its
 * partitions 0..n-1 in order.
 */
final class PageJoiner {
    private final Consumer<DescribedTopic> onTopic;
    private DescribedTopic.Builder open;

    PageJoiner(Consumer<DescribedTopic> onTopic) {
        this.onTopic = onTopic;
    }

    void onPage(DescribeTopicsResponse page) {
        List<DescribedTopic> topics = page.getTopicsList();
        boolean endsInside = page.hasNextCursor() && page.getNextCursor().getPartitionIndex() > 0;
        for (int i = 0; i < topics.size(); i++) {
            DescribedTopic piece = topics.get(i);
            if (i == 0 && continuesOpen(piece)) {
                open.addAllPartitions(piece.getPartitionsList());
            } else if (startsInside(piece)) {
                open = null;
                continue;
            } else {
                open = piece.toBuilder();
            }
            boolean cut = i == topics.size() - 1 && endsInside
                    && piece.getName().equals(page.getNextCursor().getTopicName());
            if (!cut) {
                onTopic.accept(open.build());
                open = null;
            }
        }
        if (topics.isEmpty()) {
            open = null;
        }
    }

    /** The rest of a topic whose start this joiner does not hold: it goes nowhere. */
    private static boolean startsInside(DescribedTopic piece) {
        return firstIndex(piece) > 0;
    }

    private boolean continuesOpen(DescribedTopic piece) {
        return open != null && piece.getName().equals(open.getName()) && piece.getTopicId().equals(open.getTopicId())
                && piece.getPartitionsCount() > 0 && firstIndex(piece) == open.getPartitionsCount();
    }

    /** The lowest partition index of the piece (0 without partitions); a node sends them in order, but need not. */
    private static int firstIndex(DescribedTopic piece) {
        int first = piece.getPartitionsCount() == 0 ? 0 : Integer.MAX_VALUE;
        for (DescribedPartition partition : piece.getPartitionsList()) {
            first = Math.min(first, partition.getPartitionIndex());
        }
        return first;
    }
}
