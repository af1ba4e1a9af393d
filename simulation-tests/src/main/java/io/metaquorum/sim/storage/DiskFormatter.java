package io.metaquorum.sim.storage;

import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Formats the simulated disks as {@code mq-storage format} does (KIP-853, kraft.version 1):
 * every format draws a fresh directory id from the run's format stream. The original
 * controllers are formatted with {@code --initial-controllers} naming the original voters
 * and their directory ids; a disk that replaces a wiped one is formatted with
 * {@code --no-initial-controllers}, as KIP-853 tells an operator adding a controller to a
 * running quorum, so the node comes back as an observer and learns the voters from the log.
 */
public final class DiskFormatter {
    private final Random random;
    private VoterSet initialVoters = VoterSet.EMPTY;

    public DiskFormatter(Random random) {
        this.random = random;
    }

    /**
     * Formats the voters' disks (ids ascending) and then the observers' with the initial
     * voters: the voters' node ids and their new directory ids.
     */
    public void formatInitial(List<SimDisk> voterDisks, List<SimDisk> observerDisks) {
        List<Uuid> ids = new ArrayList<>();
        List<VoterSet.Voter> voters = new ArrayList<>();
        for (SimDisk disk : voterDisks) {
            Uuid id = newDirectoryId();
            ids.add(id);
            voters.add(new VoterSet.Voter(new ReplicaKey(disk.nodeId(), id), List.of()));
        }
        initialVoters = VoterSet.of(voters);
        for (int i = 0; i < voterDisks.size(); i++) {
            voterDisks.get(i).format(new DiskFormat(ids.get(i), Optional.of(initialVoters)), this);
        }
        for (SimDisk disk : observerDisks) {
            disk.format(new DiskFormat(newDirectoryId(), Optional.of(initialVoters)), this);
        }
    }

    /** The voters the original disks were formatted with. */
    public VoterSet initialVoters() {
        return initialVoters;
    }

    /** The format of a disk that replaces a wiped one: a new directory id, no initial voters. */
    DiskFormat replacement() {
        return new DiskFormat(newDirectoryId(), Optional.of(VoterSet.EMPTY));
    }

    private Uuid newDirectoryId() {
        Uuid id;
        do {
            id = TopicIds.uuid(random.nextLong(), random.nextLong());
        } while (TopicIds.ZERO.equals(id));
        return id;
    }
}
