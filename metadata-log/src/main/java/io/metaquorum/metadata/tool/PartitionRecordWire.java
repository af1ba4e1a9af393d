package io.metaquorum.metadata.tool;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A {@code MetadataRecord} holding a {@code PartitionRecord}, read straight off its bytes
 * into fields reused from record to record, and printed exactly as {@code RecordText} prints
 * the decoded message. Partition records are nearly every record of a large log; decoding
 * them through protobuf's builders and printing them through strings was most of what
 * {@code mq-metadata dump} did.
 *
 * <p>{@link #read} takes only the common encodings, each field read as protobuf's parser
 * reads it (varints of any length, the last value of a repeated scalar, repeated numbers
 * packed or not). Anything else it declines (returns false): another record type, an
 * unknown field, a field given twice where protobuf would merge messages, bytes that do not
 * parse. The caller then decodes the record the ordinary way, which prints the same or
 * reports the corruption, so the reader never has to be right about the unusual.
 */
final class PartitionRecordWire {
    private static final int METADATA_VERSION = 15 << 3;
    private static final int METADATA_PARTITION = 2 << 3 | 2;
    private static final int TOPIC_ID = 1 << 3 | 2;
    private static final int PARTITION = 2 << 3;
    private static final int REPLICAS = 3 << 3;
    private static final int REPLICAS_PACKED = 3 << 3 | 2;
    private static final int ISR = 4 << 3;
    private static final int ISR_PACKED = 4 << 3 | 2;
    private static final int LEADER = 5 << 3;
    private static final int LEADER_EPOCH = 6 << 3;
    private static final int PARTITION_EPOCH = 7 << 3;
    private static final int UUID_MOST = 1 << 3 | 1;
    private static final int UUID_LEAST = 2 << 3 | 1;
    /** Thrown (preallocated, no stack) to give up on a record; never leaves this class. */
    private static final RuntimeException DECLINED = new RuntimeException("declined", null, false, false) {
    };

    private static final byte[] TEXT_START = ascii("| offset: ");
    private static final byte[] TEXT_EPOCH = ascii(" epoch: ");
    private static final byte[] TEXT_TYPE = ascii(" type: PartitionRecord record: {");
    private static final byte[] TEXT_TYPE_TOPIC_ID = ascii(" type: PartitionRecord record: {topic_id: \"");
    private static final byte[] TEXT_PARTITION = ascii("partition: ");
    private static final byte[] TEXT_QUOTE_PARTITION = ascii("\" partition: ");
    private static final byte[] TEXT_REPLICAS = ascii(" replicas: [");
    private static final byte[] TEXT_ISR = ascii("] isr: [");
    private static final byte[] TEXT_LEADER = ascii("] leader: ");
    private static final byte[] TEXT_LEADER_EPOCH = ascii(" leader_epoch: ");
    private static final byte[] TEXT_PARTITION_EPOCH = ascii(" partition_epoch: ");
    private static final byte[] JSON_START = ascii("{\"offset\": ");
    private static final byte[] JSON_EPOCH = ascii(", \"epoch\": ");
    private static final byte[] JSON_TYPE = ascii(", \"type\": \"PartitionRecord\", \"record\": {");
    private static final byte[] JSON_TYPE_TOPIC_ID = ascii(", \"type\": \"PartitionRecord\", \"record\": {\"topicId\": \"");
    private static final byte[] JSON_PARTITION = ascii("\"partition\": ");
    private static final byte[] JSON_QUOTE_PARTITION = ascii("\", \"partition\": ");
    private static final byte[] JSON_REPLICAS = ascii(", \"replicas\": [");
    private static final byte[] JSON_ISR = ascii("], \"isr\": [");
    private static final byte[] JSON_LEADER = ascii("], \"leader\": ");
    private static final byte[] JSON_LEADER_EPOCH = ascii(", \"leaderEpoch\": ");
    private static final byte[] JSON_PARTITION_EPOCH = ascii(", \"partitionEpoch\": ");

    private final BackingArray backing = new BackingArray();
    private byte[] bytes;
    private int position;

    private boolean hasTopicId;
    private long topicMost;
    private long topicLeast;
    private int partition;
    private int[] replicas = new int[8];
    private int replicaCount;
    private int[] isr = new int[8];
    private int isrCount;
    private int leader;
    private int leaderEpoch;
    private int partitionEpoch;

    /** Reads {@code record}, a serialized MetadataRecord; false when it is not a partition record read here. */
    boolean read(ByteString record) {
        return backing.capture(record) && read(backing.array(), backing.offset(), backing.offset() + backing.length());
    }

    /** Reads the serialized MetadataRecord {@code from[start, end)}; false when it is not a partition record read here. */
    boolean read(byte[] from, int start, int end) {
        try {
            return readMetadataRecord(from, start, end);
        } catch (RuntimeException e) {
            if (e == DECLINED) {
                return false;
            }
            throw e;
        } finally {
            bytes = null;
        }
    }

    private boolean readMetadataRecord(byte[] from, int start, int end) {
        bytes = from;
        position = start;
        boolean seen = false;
        while (position < end) {
            int tag = tag(end);
            if (tag == METADATA_PARTITION && !seen) {
                seen = true;
                int limit = lengthDelimited(end);
                readPartitionRecord(limit);
            } else if (tag == METADATA_VERSION) {
                varint(end);
            } else {
                return false;
            }
        }
        return seen;
    }

    private void readPartitionRecord(int end) {
        hasTopicId = false;
        topicMost = 0;
        topicLeast = 0;
        partition = 0;
        replicaCount = 0;
        isrCount = 0;
        leader = 0;
        leaderEpoch = 0;
        partitionEpoch = 0;
        while (position < end) {
            switch (tag(end)) {
                case TOPIC_ID -> readTopicId(end);
                case PARTITION -> partition = (int) varint(end);
                case REPLICAS -> addReplica((int) varint(end));
                case REPLICAS_PACKED -> {
                    int limit = lengthDelimited(end);
                    while (position < limit) {
                        addReplica((int) varint(limit));
                    }
                }
                case ISR -> addIsr((int) varint(end));
                case ISR_PACKED -> {
                    int limit = lengthDelimited(end);
                    while (position < limit) {
                        addIsr((int) varint(limit));
                    }
                }
                case LEADER -> leader = (int) varint(end);
                case LEADER_EPOCH -> leaderEpoch = (int) varint(end);
                case PARTITION_EPOCH -> partitionEpoch = (int) varint(end);
                default -> throw DECLINED;
            }
        }
    }

    private void readTopicId(int end) {
        if (hasTopicId) {
            throw DECLINED; // protobuf merges a message given twice
        }
        hasTopicId = true;
        int limit = lengthDelimited(end);
        while (position < limit) {
            int tag = tag(limit);
            if (tag == UUID_MOST) {
                topicMost = fixed64(limit);
            } else if (tag == UUID_LEAST) {
                topicLeast = fixed64(limit);
            } else {
                throw DECLINED;
            }
        }
    }

    private void addReplica(int replica) {
        if (replicaCount == replicas.length) {
            replicas = Arrays.copyOf(replicas, replicas.length * 2);
        }
        replicas[replicaCount++] = replica;
    }

    private void addIsr(int replica) {
        if (isrCount == isr.length) {
            isr = Arrays.copyOf(isr, isr.length * 2);
        }
        isr[isrCount++] = replica;
    }

    private int tag(int end) {
        long tag = varint(end);
        if (tag <= 0 || tag > Integer.MAX_VALUE) {
            throw DECLINED;
        }
        return (int) tag;
    }

    /** A length prefix; returns where the field it prefixes ends. */
    private int lengthDelimited(int end) {
        long length = varint(end);
        if (length < 0 || length > end - position) {
            throw DECLINED;
        }
        return position + (int) length;
    }

    /** A varint of up to 10 bytes, as protobuf reads one; an int32 field is its low 32 bits, as there. */
    private long varint(int end) {
        if (position < end && bytes[position] >= 0) {
            return bytes[position++]; // one byte: nearly every tag and number of a partition record
        }
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (position >= end) {
                throw DECLINED;
            }
            byte next = bytes[position++];
            value |= (long) (next & 0x7F) << shift;
            if (next >= 0) {
                return value;
            }
        }
        throw DECLINED;
    }

    private long fixed64(int end) {
        if (end - position < Long.BYTES) {
            throw DECLINED;
        }
        long value = 0;
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            value = value << 8 | (bytes[position + i] & 0xFF);
        }
        position += Long.BYTES;
        return value;
    }

    /** The record's line in the text form: {@code | offset: 9 epoch: 1 type: PartitionRecord record: {…}}. */
    void printText(long offset, int epoch, DumpOutput out) {
        out.bytes(TEXT_START).number(offset).bytes(TEXT_EPOCH).number(epoch);
        if (hasTopicId) {
            out.bytes(TEXT_TYPE_TOPIC_ID).id(topicMost, topicLeast).bytes(TEXT_QUOTE_PARTITION);
        } else {
            out.bytes(TEXT_TYPE).bytes(TEXT_PARTITION);
        }
        out.number(partition).bytes(TEXT_REPLICAS);
        list(replicas, replicaCount, out);
        out.bytes(TEXT_ISR);
        list(isr, isrCount, out);
        out.bytes(TEXT_LEADER).number(leader).bytes(TEXT_LEADER_EPOCH).number(leaderEpoch)
                .bytes(TEXT_PARTITION_EPOCH).number(partitionEpoch).ascii('}').newline();
    }

    /** The record's line in JSON: {@code {"offset": 9, "epoch": 1, "type": "PartitionRecord", "record": {…}}}. */
    void printJson(long offset, int epoch, DumpOutput out) {
        out.bytes(JSON_START).number(offset).bytes(JSON_EPOCH).number(epoch);
        if (hasTopicId) {
            out.bytes(JSON_TYPE_TOPIC_ID).id(topicMost, topicLeast).bytes(JSON_QUOTE_PARTITION);
        } else {
            out.bytes(JSON_TYPE).bytes(JSON_PARTITION);
        }
        out.number(partition).bytes(JSON_REPLICAS);
        list(replicas, replicaCount, out);
        out.bytes(JSON_ISR);
        list(isr, isrCount, out);
        out.bytes(JSON_LEADER).number(leader).bytes(JSON_LEADER_EPOCH).number(leaderEpoch)
                .bytes(JSON_PARTITION_EPOCH).number(partitionEpoch).ascii('}').ascii('}').newline();
    }

    /** The numbers, comma-separated, without the brackets (the labels around carry them). */
    private static void list(int[] values, int count, DumpOutput out) {
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                out.ascii(',').ascii(' ');
            }
            out.number(values[i]);
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
