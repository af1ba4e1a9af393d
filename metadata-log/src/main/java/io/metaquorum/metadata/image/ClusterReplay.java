package io.metaquorum.metadata.image;

import static io.metaquorum.metadata.image.TopicsReplay.check;

import io.metaquorum.protocol.FenceBrokerRecord;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.UnfenceBrokerRecord;
import io.metaquorum.protocol.UnregisterBrokerRecord;

/** Replays the broker records onto a {@link ClusterImage}, refusing the impossible ones. */
final class ClusterReplay {
    private ClusterReplay() {
    }

    static ClusterImage register(ClusterImage cluster, RegisterBrokerRecord record, long offset) {
        String type = "RegisterBrokerRecord";
        check(record.getBrokerId() >= 0, offset, type, () -> "negative broker id " + record.getBrokerId());
        BrokerRegistration old = cluster.broker(record.getBrokerId());
        check(old == null || record.getBrokerEpoch() > old.epoch(), offset, type, () -> "broker " + record.getBrokerId()
                + " epoch " + record.getBrokerEpoch() + " does not follow its registered epoch "
                + (old == null ? -1 : old.epoch()));
        return cluster.withBroker(new BrokerRegistration(record.getBrokerId(), record.getIncarnationId(),
                record.getBrokerEpoch(), record.getEndpointsList(), record.getRack(), record.getFenced()));
    }

    static ClusterImage unregister(ClusterImage cluster, UnregisterBrokerRecord record, long offset) {
        registered(cluster, record.getBrokerId(), record.getBrokerEpoch(), offset, "UnregisterBrokerRecord");
        return cluster.withoutBroker(record.getBrokerId());
    }

    static ClusterImage fence(ClusterImage cluster, FenceBrokerRecord record, long offset) {
        String type = "FenceBrokerRecord";
        BrokerRegistration broker = registered(cluster, record.getBrokerId(), record.getBrokerEpoch(), offset, type);
        check(!broker.fenced(), offset, type, () -> "broker " + broker.id() + " is already fenced");
        return cluster.withBroker(broker.withFenced(true));
    }

    static ClusterImage unfence(ClusterImage cluster, UnfenceBrokerRecord record, long offset) {
        String type = "UnfenceBrokerRecord";
        BrokerRegistration broker = registered(cluster, record.getBrokerId(), record.getBrokerEpoch(), offset, type);
        check(broker.fenced(), offset, type, () -> "broker " + broker.id() + " is not fenced");
        return cluster.withBroker(broker.withFenced(false));
    }

    private static BrokerRegistration registered(ClusterImage cluster, int id, long epoch, long offset, String type) {
        BrokerRegistration broker = cluster.broker(id);
        check(broker != null, offset, type, () -> "broker " + id + " is not registered");
        check(broker.epoch() == epoch, offset, type, () -> "broker " + id + " epoch " + epoch + ", registered with epoch "
                + broker.epoch());
        return broker;
    }
}
