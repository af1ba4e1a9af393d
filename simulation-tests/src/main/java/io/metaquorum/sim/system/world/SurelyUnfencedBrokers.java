package io.metaquorum.sim.system.world;

import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.sim.system.workload.ClusterView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The brokers surely unfenced when each admin client's current call was decided, for the
 * reference model's {@link ClusterView}: a valid create may be refused for too few unfenced
 * brokers only if fewer than its replication factor were surely unfenced at its decision.
 *
 * <p>Why this is sound. The active controller decides a write as it handles the attempt, on
 * its decision image (committed, plus what its leadership appended); a fencing (an expired
 * session, a broker asking to be let go, a re-registration) counts only once it is a record
 * in that image, so nothing about processes, pauses or partitions can fence a broker inside
 * the decision. The simulator does not read that image's brokers, which would take a
 * controller's word for its own state: it requires the decision image to end where the
 * committed log ends (nothing appended and not yet committed, so a correct controller decides
 * on exactly the committed log, whichever leadership it is in) and then takes the brokers
 * unfenced in the checkers' own replay of that log. When the two ends differ, no broker is
 * sure. A call retried over several attempts may be decided by any of them: its view is the
 * intersection over every attempt an active controller handled, and empty if none did.
 *
 * <p>Invariant: each client's set is a subset of the registered brokers it was narrowed by.
 */
final class SurelyUnfencedBrokers {
    /** Per client: the intersection so far over the current call's decisions, null before the first. */
    private final List<SortedSet<Integer>> sure;

    SurelyUnfencedBrokers(int clients) {
        this.sure = new ArrayList<>(Collections.nCopies(clients, null));
    }

    /**
     * The brokers of {@code registered} surely unfenced at a decision made on an image ending
     * at {@code decisionEndOffset}, with {@code committed} the checkers' replay of the committed log.
     */
    static SortedSet<Integer> atDecision(MetadataImage committed, long decisionEndOffset,
                                         SortedSet<Integer> registered) {
        TreeSet<Integer> unfenced = new TreeSet<>();
        if (decisionEndOffset != committed.committedEndOffset()) {
            return unfenced;
        }
        for (BrokerRegistration broker : committed.cluster().unfencedSortedById()) {
            if (registered.contains(broker.id())) {
                unfenced.add(broker.id());
            }
        }
        return unfenced;
    }

    /** Client {@code client} starts a call: nothing decided yet. */
    void onStart(int client) {
        sure.set(client, null);
    }

    /** An active controller decided an attempt of client {@code client}'s call with {@code unfenced} sure. */
    void onDecision(int client, SortedSet<Integer> unfenced) {
        if (sure.get(client) == null) {
            sure.set(client, new TreeSet<>(unfenced));
        } else {
            sure.get(client).retainAll(unfenced);
        }
    }

    /** The view the call of client {@code client} is judged with. */
    ClusterView view(int client, SortedSet<Integer> registered) {
        SortedSet<Integer> unfenced = sure.get(client) == null ? Collections.emptySortedSet() : sure.get(client);
        return new ClusterView(registered, unfenced);
    }
}
