package io.metaquorum.metadata.loader;

/**
 * What a node's loader knows besides the image: facts about this node's path through the
 * log (how many records it replayed, the last append time it saw) and raft's latest leader
 * announcement. Kept out of {@link io.metaquorum.metadata.image.MetadataImage} because none
 * of it is a function of the committed log alone: a node that loaded a snapshot counts
 * differently from one that replayed everything.
 *
 * @param recordsReplayed     metadata records replayed by this loader (a snapshot load
 *                            counts the snapshot's records); control records excluded
 * @param lastCommittedTimeMs append time of the batch holding the image's last record,
 *                            -1 when none
 * @param leaderId            the leader raft last announced, -1 when unknown
 * @param leaderEpoch         the epoch of that announcement
 */
public record LoaderStatus(long recordsReplayed, long lastCommittedTimeMs, int leaderId, int leaderEpoch) {
    public static final LoaderStatus INITIAL = new LoaderStatus(0, -1, -1, 0);

    LoaderStatus withReplayed(long moreRecords, long timeMs) {
        return new LoaderStatus(recordsReplayed + moreRecords, timeMs, leaderId, leaderEpoch);
    }

    LoaderStatus withLoadedSnapshot(long snapshotRecords, long timeMs) {
        return new LoaderStatus(snapshotRecords, timeMs, leaderId, leaderEpoch);
    }

    LoaderStatus withLeader(int newLeaderId, int newLeaderEpoch) {
        return new LoaderStatus(recordsReplayed, lastCommittedTimeMs, newLeaderId, newLeaderEpoch);
    }
}
