package io.metaquorum.metadata.controller;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * Draws topic ids from the injected random source (deterministic under the simulator's
 * seed). Never a reserved id (zero, {@code __cluster_metadata}'s), never one whose printed
 * form starts with '-' (a command line would read it as a flag, as Kafka avoids too), never
 * one in use. Reusing the id of a deleted topic would need the same 128 random bits again.
 */
final class TopicIdGenerator {
    private static final int ATTEMPTS_MAX = 64;
    private final RandomGenerator random;

    TopicIdGenerator(RandomGenerator random) {
        this.random = random;
    }

    Uuid next(Predicate<UuidKey> inUse) {
        for (int attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
            Uuid id = TopicIds.uuid(random.nextLong(), random.nextLong());
            if (!id.equals(TopicIds.ZERO) && !id.equals(TopicIds.METADATA_TOPIC_ID)
                    && !TopicIds.toBase64(id).startsWith("-") && !inUse.test(UuidKey.of(id))) {
                return id;
            }
        }
        Invariants.check(false, "no usable topic id in %d random draws: the random source is broken", ATTEMPTS_MAX);
        return TopicIds.ZERO;
    }
}
