package io.metaquorum.broker.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Directory names: the partition is the digits after the last '-'; strays carry their staging time. */
class PartitionDirNameTest {
    @Test
    void topicNamesWithDashesDotsAndUnderscores() {
        assertEquals(new PartitionDirName.Partition("a-b.c_d-7", 12), PartitionDirName.parse("a-b.c_d-7-12"));
        assertEquals(new PartitionDirName.Partition("t", 0), PartitionDirName.parse("t-0"));
        assertEquals(new PartitionDirName.Partition("t", Integer.MAX_VALUE), PartitionDirName.parse("t-2147483647"));
    }

    @Test
    void namesThatAreNotPartitionDirectories() {
        for (String name : new String[] {"t", "t-", "-0", "t-01", "t-+1", "t-2147483648", "t -0", "./-0", "..-0",
                "lost+found", "meta.properties", "t-0.abc-stray", "t-0.-stray", "t-0.5_0-stray", "t-0.05-stray",
                "-stray", "t-0.5-delete", "t-0.5-future"}) {
            assertInstanceOf(PartitionDirName.Unrecognized.class, PartitionDirName.parse(name), name);
        }
    }

    @Test
    void strayNames() {
        assertEquals("t.x-3.1700000000000-stray", PartitionDirName.strayDir("t.x", 3, 1_700_000_000_000L, 0));
        assertEquals("t.x-3.1700000000000_2-stray", PartitionDirName.strayDir("t.x", 3, 1_700_000_000_000L, 2));
        assertEquals(new PartitionDirName.Stray("t.x", 3, 1_700_000_000_000L),
                PartitionDirName.parse("t.x-3.1700000000000_2-stray"));
    }

    @Test
    void aLongTopicNameIsCutInTheStrayName() {
        String topic = "x".repeat(PartitionDirName.TOPIC_LENGTH_MAX);
        String stray = PartitionDirName.strayDir(topic, 99, 1_700_000_000_000L, 0);
        assertEquals(PartitionDirName.NAME_LENGTH_MAX, stray.length());
        PartitionDirName.Stray parsed = (PartitionDirName.Stray) PartitionDirName.parse(stray);
        assertEquals(99, parsed.partition());
        assertEquals(1_700_000_000_000L, parsed.stagedAtMs());
        assertTrue(topic.startsWith(parsed.topic()));
    }

    @Provide
    Arbitrary<String> topics() {
        return Arbitraries.strings().withChars("ab-._0123456789").ofMinLength(1).ofMaxLength(30)
                .filter(t -> !t.equals(".") && !t.equals(".."));
    }

    @Property(tries = 500)
    void namesRoundTrip(@ForAll("topics") String topic, @ForAll @IntRange(min = 0) int partition,
                        @ForAll @LongRange(min = 0) long stagedAtMs, @ForAll @IntRange(min = 0, max = 5) int sequence) {
        assertEquals(new PartitionDirName.Partition(topic, partition),
                PartitionDirName.parse(PartitionDirName.partitionDir(topic, partition)));
        assertEquals(new PartitionDirName.Stray(topic, partition, stagedAtMs),
                PartitionDirName.parse(PartitionDirName.strayDir(topic, partition, stagedAtMs, sequence)));
    }
}
