package io.metaquorum.metadata.snapshot;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.ControlRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * The latest committed KRaftVersionRecord and VotersRecord a loader has seen, as they were
 * encoded: what a snapshot at the loader's offset must carry after its header, since the
 * snapshot replaces the log that held them (KIP-853). Driver-thread only.
 */
public final class RaftStateRecords {
    private ByteString kraftVersion;
    private ByteString voters;

    /** Keeps {@code record} (encoded as {@code bytes}) if it is raft state; other control records are ignored. */
    public void note(ControlRecord record, ByteString bytes) {
        if (record.hasKraftVersion()) {
            kraftVersion = bytes;
        } else if (record.hasVoters()) {
            voters = bytes;
        }
    }

    /** Replaces what is kept by what a loaded snapshot held. */
    public void reset(List<ControlRecord> loaded) {
        kraftVersion = null;
        voters = null;
        for (ControlRecord record : loaded) {
            note(record, record.toByteString());
        }
    }

    /** The encoded records, KRaftVersionRecord first; empty when none was seen. */
    public List<ByteString> records() {
        List<ByteString> records = new ArrayList<>();
        if (kraftVersion != null) {
            records.add(kraftVersion);
        }
        if (voters != null) {
            records.add(voters);
        }
        return List.copyOf(records);
    }
}
