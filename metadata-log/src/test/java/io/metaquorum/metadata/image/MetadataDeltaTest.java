package io.metaquorum.metadata.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.record.RecordTypes;
import io.metaquorum.protocol.MetadataRecord;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetadataDeltaTest {
    /** One record of every type in the closed set, built from the schema so a new type is covered at once. */
    private static List<MetadataRecord> oneOfEachType() {
        OneofDescriptor oneof = MetadataRecord.getDescriptor().getOneofs().get(0);
        return oneof.getFields().stream().map(MetadataDeltaTest::withField).toList();
    }

    private static MetadataRecord withField(FieldDescriptor field) {
        Message empty = MetadataRecord.newBuilder().newBuilderForField(field).build();
        return MetadataRecord.newBuilder().setField(field, empty).build();
    }

    @Test
    void everyRecordTypeIsDispatchedAndNamed() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        Set<String> names = new HashSet<>();
        List<MetadataRecord> records = oneOfEachType();
        for (MetadataRecord record : records) {
            delta.replay(record);
            names.add(RecordTypes.typeName(record));
            assertEquals(RecordTypes.body(record).getDescriptorForType().getName(), RecordTypes.typeName(record));
        }
        assertEquals(records.size(), names.size(), "every type has its own name");
        assertEquals(MetadataRecord.RecordCase.values().length - 1, records.size());
        assertEquals(records.size(), delta.apply(records.size() - 1, 1, 0).recordsReplayed());
    }

    @Test
    void aRecordWithoutTypeIsRefused() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        assertThrows(IllegalArgumentException.class, () -> delta.replay(MetadataRecord.getDefaultInstance()));
    }

    @Test
    void everyIntermediateImageRoundTripsThroughItsRecords() {
        List<MetadataRecord> log = List.of(
                MetadataRecordCodec.featureLevel("metadata.version", 1),
                MetadataRecordCodec.noOp(),
                MetadataRecordCodec.featureLevel("b", 3),
                MetadataRecordCodec.featureLevel("a", 2),
                MetadataRecordCodec.featureLevel("b", 0),
                MetadataRecordCodec.featureLevel("metadata.version", 2));
        MetadataImage image = MetadataImage.EMPTY;
        for (int i = 0; i < log.size(); i++) {
            MetadataDelta delta = new MetadataDelta(image);
            delta.replay(log.get(i));
            image = delta.apply(i, 1, i);
            MetadataDelta rebuilt = new MetadataDelta(MetadataImage.EMPTY);
            image.toRecords().forEach(rebuilt::replay);
            assertEquals(image.features(), rebuilt.apply(i, 1, i).features(), "after record " + i);
        }
        assertEquals(Map.of("metadata.version", 2, "a", 2), image.features().levels());
    }
}
