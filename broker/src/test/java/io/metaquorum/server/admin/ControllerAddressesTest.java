package io.metaquorum.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A controller's address: the voter set in force first (it has the address a moved voter
 * registered), else the configured one, else none.
 */
class ControllerAddressesTest {
    private static VoterSet.Voter voter(int id, int port) {
        return new VoterSet.Voter(new ReplicaKey(id, TopicIds.uuid(id, 1)),
                List.of(new VoterSet.Endpoint("127.0.0.1", port)));
    }

    @Test
    void theVoterSetsAddressWinsAndAnAddedVoterIsFoundInTheVoterSetOnceItIsThere() {
        AtomicReference<VoterSet> voters = new AtomicReference<>(VoterSet.ofIds(List.of(1)));
        ControllerAddresses addresses = new ControllerAddresses(
                Map.of(1, new InetSocketAddress("127.0.0.1", 9001)), voters::get);

        assertEquals(Optional.of(new InetSocketAddress("127.0.0.1", 9001)), addresses.addressOf(1),
                "the static voters name no endpoint: the configured address is used");
        assertTrue(addresses.addressOf(4).isEmpty());

        voters.set(VoterSet.of(List.of(voter(1, 7001))));
        assertEquals(Optional.of(new InetSocketAddress("127.0.0.1", 7001)), addresses.addressOf(1),
                "the voter moved to 7001 and updated its entry");

        voters.set(VoterSet.of(List.of(voter(1, 7001), voter(4, 7004))));
        assertEquals(Optional.of(new InetSocketAddress("127.0.0.1", 7004)), addresses.addressOf(4));
    }

    @Test
    void aVoterWithoutEndpointsHasNoAddress() {
        ControllerAddresses addresses = new ControllerAddresses(Map.of(), () -> VoterSet.ofIds(List.of(1, 2)));
        assertTrue(addresses.addressOf(2).isEmpty());
        assertTrue(ControllerAddresses.configured(Map.of()).addressOf(1).isEmpty());
    }
}
