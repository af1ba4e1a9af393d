package io.metaquorum.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.Uuid;
import java.util.List;
import org.junit.jupiter.api.Test;

class VoterSetTest {
    private static final Uuid DIR_1 = TopicIds.uuid(7, 1);
    private static final Uuid DIR_2 = TopicIds.uuid(7, 2);
    private static final Uuid OTHER = TopicIds.uuid(9, 9);

    private static VoterSet withDirectories() {
        return VoterSet.of(List.of(
                new VoterSet.Voter(new ReplicaKey(1, DIR_1), List.of(new VoterSet.Endpoint("127.0.0.1", 9091))),
                new VoterSet.Voter(new ReplicaKey(2, DIR_2), List.of(new VoterSet.Endpoint("127.0.0.1", 9092)))));
    }

    @Test
    void aReplicaIsAVoterOnlyWithTheListedDirectoryId() {
        VoterSet voters = withDirectories();
        assertTrue(voters.isVoter(new ReplicaKey(1, DIR_1)));
        assertFalse(voters.isVoter(new ReplicaKey(1, OTHER)), "reformatted: another directory");
        assertFalse(voters.isVoter(ReplicaKey.of(1)), "a directory formatted before directory ids");
        assertFalse(voters.isVoter(new ReplicaKey(3, DIR_1)), "not listed");
        assertTrue(voters.hasId(1));
        assertEquals(DIR_2, voters.directoryIdOf(2));
        assertEquals(TopicIds.ZERO, voters.directoryIdOf(3));
    }

    @Test
    void aStaticVoterMatchesAnyDirectoryId() {
        VoterSet voters = VoterSet.ofIds(List.of(3, 1, 2));
        assertEquals(List.of(1, 2, 3), voters.ids());
        assertTrue(voters.isVoter(new ReplicaKey(1, OTHER)));
        assertTrue(voters.isVoter(ReplicaKey.of(1)));
        assertFalse(voters.hasDirectoryIds());
        assertEquals(2, voters.majority());
    }

    @Test
    void theVotersRecordRoundTrips() {
        VoterSet voters = withDirectories();
        assertEquals(voters, VoterSet.fromRecord(voters.toRecord()));
        assertEquals("[1:" + TopicIds.toBase64(DIR_1) + "@127.0.0.1:9091, 2:" + TopicIds.toBase64(DIR_2)
                + "@127.0.0.1:9092]", voters.toString());
    }

    @Test
    void aNodeIdListedTwiceIsRefused() {
        VoterSet.Voter one = new VoterSet.Voter(new ReplicaKey(1, DIR_1), List.of());
        VoterSet.Voter again = new VoterSet.Voter(new ReplicaKey(1, DIR_2), List.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VoterSet.of(List.of(one, again)));
        assertEquals("voter 1 is listed twice", e.getMessage());
    }
}
