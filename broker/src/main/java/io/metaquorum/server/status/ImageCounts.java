package io.metaquorum.server.status;

import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;

/**
 * The controller's cluster-wide counts in one image, as Kafka's controller reports them:
 * GlobalTopicCount, GlobalPartitionCount, OfflinePartitionsCount (partitions without a
 * leader), FencedBrokerCount and ActiveBrokerCount (registered and unfenced). Counting walks
 * every partition once, so {@link Cache} does it once per image, at scrape time.
 */
public record ImageCounts(long offset, int topics, long partitions, long offlinePartitions, int fencedBrokers,
                   int activeBrokers) {

    public static ImageCounts of(MetadataImage image) {
        long partitions = 0;
        long offline = 0;
        for (TopicImage topic : image.topics().byId().values()) {
            partitions += topic.partitionCount();
            for (PartitionRegistration partition : topic.partitions().values()) {
                if (partition.leader() == PartitionRegistration.NO_LEADER) {
                    offline++;
                }
            }
        }
        int fenced = 0;
        int active = 0;
        for (BrokerRegistration broker : image.cluster().brokers().values()) {
            if (broker.fenced()) {
                fenced++;
            } else {
                active++;
            }
        }
        return new ImageCounts(image.lastCommittedOffset(), image.topics().topicCount(), partitions, offline, fenced,
                active);
    }

    /**
     * The counts of the newest image handed to {@link #of(MetadataImage)}, counted again only
     * when the image changed. Scrapes run on one thread; a race between two would only count
     * twice.
     */
    public static final class Cache {
        /** The image last counted and its counts, null before the first. */
        private volatile Counted last;

        public ImageCounts of(MetadataImage image) {
            Counted known = last;
            if (known == null || known.image() != image) {
                known = new Counted(image, ImageCounts.of(image));
                last = known;
            }
            return known.counts();
        }

        private record Counted(MetadataImage image, ImageCounts counts) {
        }
    }
}
