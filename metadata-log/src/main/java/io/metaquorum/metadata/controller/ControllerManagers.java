package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.controller.FeatureControlManager.SupportedRange;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * The managers of the quorum controller over one {@link ControllerState}, wired in
 * one place (docs/engineering-rules.md rule 11): what the controller's event loop holds. It decides
 * through the managers, appends each result's records atomically, then calls
 * {@link #replay} with the offsets they got; on losing leadership it calls {@link #revertTo}
 * with the last committed image. Standbys only replay committed batches.
 */
public final class ControllerManagers {
    /** The controller's settings the managers need. */
    public record Settings(ReplicationDefaults defaults, long brokerSessionTimeoutMs,
                           Map<String, SupportedRange> supportedFeatures) {
        public Settings {
            supportedFeatures = Collections.unmodifiableMap(new TreeMap<>(supportedFeatures));
        }
    }

    private final ControllerState state;
    private final ReplicationControlManager replication;
    private final ClusterControlManager cluster;
    private final ConfigurationControlManager configuration;
    private final FeatureControlManager features;
    private final AclControlManager acls;
    private final ScramControlManager scram;

    /**
     * @param committed the image to start from (the last committed one)
     * @param policy    the create-topic policy, loaded by name at start-up elsewhere
     * @param random    the only randomness of the decisions (topic ids, placement)
     */
    public ControllerManagers(MetadataImage committed, Settings settings, CreateTopicPolicy policy,
                              RandomGenerator random) {
        this.state = new ControllerState(committed);
        this.replication = new ReplicationControlManager(state, settings.defaults(), policy, random);
        this.cluster = new ClusterControlManager(state, replication, settings.brokerSessionTimeoutMs());
        this.configuration = new ConfigurationControlManager(state);
        this.features = new FeatureControlManager(state, settings.supportedFeatures());
        this.acls = new AclControlManager(state);
        this.scram = new ScramControlManager(state);
    }

    public ReplicationControlManager replication() {
        return replication;
    }

    public ClusterControlManager cluster() {
        return cluster;
    }

    public ConfigurationControlManager configuration() {
        return configuration;
    }

    public FeatureControlManager features() {
        return features;
    }

    public AclControlManager acls() {
        return acls;
    }

    public ScramControlManager scram() {
        return scram;
    }

    /** The image the managers decide on: committed plus appended records. */
    public MetadataImage image() {
        return state.image();
    }

    /** Replays appended (or, on a standby, committed) records, the first at {@code baseOffset}. */
    public void replay(List<MetadataRecord> records, long baseOffset, int epoch) {
        state.replay(records, baseOffset, epoch);
    }

    /** Drops the records after {@code committed}: leadership was lost before they committed. */
    public void revertTo(MetadataImage committed) {
        state.revertTo(committed);
    }
}
