package io.metaquorum.server.kafka;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.security.scram.ScramCredential;

/**
 * The SCRAM credentials a Kafka-protocol listener checks: the {@code UserScramCredentialRecord}s
 * of this node's current metadata image. A credential altered through any node is checked
 * here once this node has replayed it, as a Kafka broker checks its own metadata image.
 */
public final class ImageScramCredentials implements ScramCredentialStore {
    private final Supplier<MetadataImage> image;

    /** @param image this node's latest published image */
    public ImageScramCredentials(Supplier<MetadataImage> image) {
        this.image = image;
    }

    @Override
    public Optional<ScramCredential> credential(String mechanism, String user) {
        return ScramMechanism.fromMechanismName(mechanism)
                .flatMap(known -> image.get().scram().credential(user, known))
                .map(ImageScramCredentials::toKafka);
    }

    private static ScramCredential toKafka(StoredScramCredential stored) {
        return new ScramCredential(stored.salt(), stored.storedKey(), stored.serverKey(), stored.iterations());
    }
}
