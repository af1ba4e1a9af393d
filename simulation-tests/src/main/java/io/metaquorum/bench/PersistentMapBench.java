package io.metaquorum.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.Supplier;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.TreePMap;

/**
 * Plain timing harness that chose the persistent map of the metadata image:
 * builds an image-shaped structure of {@code topics × partitionsPerTopic} partitions
 * (topics by id → partitions by index, plus names → ids) once with pcollections'
 * {@code HashTreePMap} and once with vavr's {@code HashMap} (a HAMT), one insert per
 * replayed PartitionRecord, and prints for each: full build time, heap retained after a
 * full GC, and the mean time of one partition update on top of the built structure.
 *
 * <p>Run: {@code java -Xmx4g -cp <classpath> io.metaquorum.bench.PersistentMapBench [topics]
 * [partitionsPerTopic]} (see README, "Metadata image"). One library per JVM
 * ({@code pcollections} for {@code HashTreePMap}, {@code pcollections-tree} for the sorted
 * {@code TreePMap}, or {@code vavr}, as the third argument) keeps the heap figures apart.
 */
public final class PersistentMapBench {
    private static final int UPDATES = 100_000;
    private static final int ROUNDS = 3;

    /** A partition's state, shaped like the image's registration. */
    record Part(int[] replicas, int[] isr, int leader, int leaderEpoch, int partitionEpoch) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Part p && leader == p.leader && leaderEpoch == p.leaderEpoch
                    && partitionEpoch == p.partitionEpoch && Arrays.equals(replicas, p.replicas)
                    && Arrays.equals(isr, p.isr);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(replicas) + leaderEpoch;
        }
    }

    record TopicKey(long most, long least) implements Comparable<TopicKey> {
        @Override
        public int compareTo(TopicKey o) {
            int c = Long.compare(most, o.most);
            return c != 0 ? c : Long.compare(least, o.least);
        }
    }

    /** One library's image shape: build, then update one partition. */
    interface Shape {
        void build(int topics, int partitionsPerTopic);

        void updateOne(int topic, int partition);

        Object root();
    }

    static final class PcollectionsShape implements Shape {
        record Topic(String name, TopicKey id, PMap<Integer, Part> partitions) {
        }

        private final boolean sorted;
        private PMap<TopicKey, Topic> byId;
        private PMap<String, TopicKey> byName;

        PcollectionsShape(boolean sorted) {
            this.sorted = sorted;
            this.byId = sorted ? TreePMap.empty() : HashTreePMap.empty();
            this.byName = sorted ? TreePMap.empty() : HashTreePMap.empty();
        }

        private PMap<Integer, Part> emptyPartitions() {
            return sorted ? TreePMap.empty() : HashTreePMap.empty();
        }

        @Override
        public void build(int topics, int partitionsPerTopic) {
            for (int t = 0; t < topics; t++) {
                TopicKey id = new TopicKey(t, ~t);
                String name = "topic-" + t;
                byId = byId.plus(id, new Topic(name, id, emptyPartitions()));
                byName = byName.plus(name, id);
                for (int p = 0; p < partitionsPerTopic; p++) {
                    Topic topic = byId.get(id);
                    byId = byId.plus(id, new Topic(name, id, topic.partitions().plus(p, part(t, p, 0))));
                }
            }
        }

        @Override
        public void updateOne(int t, int p) {
            TopicKey id = new TopicKey(t, ~t);
            Topic topic = byId.get(id);
            PMap<TopicKey, Topic> next = byId.plus(id, new Topic(topic.name(), id,
                    topic.partitions().plus(p, part(t, p, 1))));
            sink(next);
        }

        @Override
        public Object root() {
            return new Object[] {byId, byName};
        }
    }

    static final class VavrShape implements Shape {
        record Topic(String name, TopicKey id, io.vavr.collection.HashMap<Integer, Part> partitions) {
        }

        private io.vavr.collection.HashMap<TopicKey, Topic> byId = io.vavr.collection.HashMap.empty();
        private io.vavr.collection.HashMap<String, TopicKey> byName = io.vavr.collection.HashMap.empty();

        @Override
        public void build(int topics, int partitionsPerTopic) {
            for (int t = 0; t < topics; t++) {
                TopicKey id = new TopicKey(t, ~t);
                String name = "topic-" + t;
                byId = byId.put(id, new Topic(name, id, io.vavr.collection.HashMap.empty()));
                byName = byName.put(name, id);
                for (int p = 0; p < partitionsPerTopic; p++) {
                    Topic topic = byId.get(id).get();
                    byId = byId.put(id, new Topic(name, id, topic.partitions().put(p, part(t, p, 0))));
                }
            }
        }

        @Override
        public void updateOne(int t, int p) {
            TopicKey id = new TopicKey(t, ~t);
            Topic topic = byId.get(id).get();
            sink(byId.put(id, new Topic(topic.name(), id, topic.partitions().put(p, part(t, p, 1)))));
        }

        @Override
        public Object root() {
            return new Object[] {byId, byName};
        }
    }

    private static Object sinkHole;

    private static void sink(Object o) {
        sinkHole = o;
    }

    static Part part(int topic, int partition, int epoch) {
        int first = (topic + partition) % 6;
        int[] replicas = {first, (first + 1) % 6, (first + 2) % 6};
        return new Part(replicas, replicas, first, epoch, epoch);
    }

    private PersistentMapBench() {
    }

    public static void main(String[] args) {
        int topics = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int partitionsPerTopic = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        String library = args.length > 2 ? args[2] : "pcollections";
        Supplier<Shape> shapes = switch (library) {
            case "vavr" -> VavrShape::new;
            case "pcollections-tree" -> () -> new PcollectionsShape(true);
            case "pcollections" -> () -> new PcollectionsShape(false);
            default -> throw new IllegalArgumentException("library: pcollections, pcollections-tree or vavr");
        };
        for (int round = 1; round <= ROUNDS; round++) {
            long heapBefore = usedHeapAfterGc();
            Shape shape = shapes.get();
            long start = System.nanoTime();
            shape.build(topics, partitionsPerTopic);
            long buildNs = System.nanoTime() - start;
            long heapBytes = usedHeapAfterGc() - heapBefore;
            long updateStart = System.nanoTime();
            for (int i = 0; i < UPDATES; i++) {
                shape.updateOne((int) ((i * 7919L) % topics), (int) ((i * 31L) % partitionsPerTopic));
            }
            long updateNs = (System.nanoTime() - updateStart) / UPDATES;
            System.out.printf("%s round %d: %,d partitions (%,d topics x %d): build %,d ms, heap %,d MiB, "
                            + "one partition update %,d ns (mean of %,d)%n", library, round,
                    (long) topics * partitionsPerTopic, topics, partitionsPerTopic, buildNs / 1_000_000,
                    heapBytes >> 20, updateNs, UPDATES);
            sink(shape.root());
            sink(null);
        }
    }

    static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
