package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class InitialControllersTest {
    private static final String DIR_1 = "AAAAAAAAAAAAAAAAAAAAEQ";
    private static final String DIR_2 = "AAAAAAAAAAAAAAAAAAAAEg";

    @Test
    void entriesParseIntoVotersWithDirectoryIdsAndEndpoints() {
        VoterSet voters = InitialControllers.parse("2@host-b:19092:" + DIR_2 + ", 1@127.0.0.1:19091:" + DIR_1);
        assertEquals(List.of(1, 2), voters.ids());
        assertEquals(new VoterSet.Voter(new ReplicaKey(2, TopicIds.fromBase64(DIR_2)),
                List.of(new VoterSet.Endpoint("host-b", 19092))), voters.voter(2).orElseThrow());
        assertEquals(voters, InitialControllers.parse(String.join(",", BootstrapVoters.entries(voters))));
    }

    @Test
    void badInputIsNamedWithTheFlagAndTheEntry() {
        assertProblem("1@127.0.0.1:19091", "--initial-controllers: '1@127.0.0.1:19091': expected HOST:PORT, "
                + "got '127.0.0.1'");
        assertProblem("1@127.0.0.1:19091:short", "--initial-controllers: '1@127.0.0.1:19091:short': a directory id "
                + "is 22 characters of URL-safe base64 (make one with mq-storage random-uuid), got 'short'");
        assertProblem("x@127.0.0.1:19091:" + DIR_1, "--initial-controllers: the node id in 'x@127.0.0.1:19091:"
                + DIR_1 + "' is not an integer");
        assertProblem("127.0.0.1:19091:" + DIR_1, "--initial-controllers: expected ID@HOST:PORT:DIRECTORY_ID, got '"
                + "127.0.0.1:19091:" + DIR_1 + "'");
        assertProblem("1@127.0.0.1:0:" + DIR_1, "--initial-controllers: controller 1 needs a real port, not 0");
        assertProblem("1@127.0.0.1:19091:" + DIR_1 + ",1@127.0.0.1:19092:" + DIR_2,
                "--initial-controllers: voter 1 is listed twice");
        assertProblem("1@127.0.0.1:19091:" + DIR_1 + ",", "--initial-controllers: an empty entry in '1@127.0.0.1:19091:"
                + DIR_1 + ",'");
        assertProblem("1@127.0.0.1:19091:AAAAAAAAAAAAAAAAAAAAAA", "--initial-controllers: '1@127.0.0.1:19091:"
                + "AAAAAAAAAAAAAAAAAAAAAA': directory id 'AAAAAAAAAAAAAAAAAAAAAA' is a reserved id");
    }

    private static void assertProblem(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InitialControllers.parse(text));
        assertEquals(message, e.getMessage());
    }
}
