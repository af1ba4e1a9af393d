package io.metaquorum.server.admin;

import io.metaquorum.raft.VoterSet;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where each controller listens: as the voter set in force in the log names it, else as the
 * configured {@code controller.quorum.voters} does. The log knows a controller added with
 * AddVoter that no configuration lists, and the new address of one whose listener moved,
 * which updated its entry itself (KIP-853). Thread-safe: the voter set comes from the node's
 * raft replica, which publishes it.
 */
public final class ControllerAddresses {
    private final Map<Integer, InetSocketAddress> configured;
    private final Supplier<VoterSet> voters;

    public ControllerAddresses(Map<Integer, InetSocketAddress> configured, Supplier<VoterSet> voters) {
        this.configured = Map.copyOf(configured);
        this.voters = voters;
    }

    /** Only the configured addresses. */
    public static ControllerAddresses configured(Map<Integer, InetSocketAddress> configured) {
        return new ControllerAddresses(configured, () -> VoterSet.EMPTY);
    }

    public Optional<InetSocketAddress> addressOf(int controllerId) {
        Optional<InetSocketAddress> logged = voters.get().voter(controllerId).filter(v -> !v.endpoints().isEmpty())
                .map(v -> new InetSocketAddress(v.endpoints().get(0).host(), v.endpoints().get(0).port()));
        return logged.or(() -> Optional.ofNullable(configured.get(controllerId)));
    }
}
