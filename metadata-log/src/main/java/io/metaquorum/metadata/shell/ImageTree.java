package io.metaquorum.metadata.shell;

import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.ConfigResource;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.metadata.record.RecordText;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link MetadataImage} as a tree of directories and files, the way {@code mq-metadata
 * shell} shows it: {@code /brokers/<id>}, {@code /topics/<name>/<partition>} (and
 * {@code /topics/<name>/id}), {@code /topicIds/<id>/<partition>} (and {@code .../name}),
 * {@code /configs/<topic|broker>/<name>}, {@code /acls/<id>}, {@code /scram/<user>/<mechanism>},
 * {@code /features/<name>} and {@code /provenance}. A SCRAM credential shows its iterations;
 * its salt and keys read {@code [redacted]}: they are what a password guess is checked against
 * offline, and an operator never needs them (docs/security.md, "SCRAM credentials"). Nothing is built ahead: each node is looked up in the image's maps when
 * asked for, so a tree over a million partitions costs nothing until it is listed.
 *
 * <p>Paths are lists of segments from the root; children come sorted (numbers numerically).
 */
public final class ImageTree {
    static final List<String> ROOT = List.of("brokers", "topics", "topicIds", "configs", "acls", "scram",
            "features", "provenance");
    private static final List<String> CONFIG_TYPES = List.of("broker", "topic");

    private final MetadataImage image;

    public ImageTree(MetadataImage image) {
        this.image = image;
    }

    public MetadataImage image() {
        return image;
    }

    /** Whether {@code path} names a node. */
    public boolean exists(List<String> path) {
        return isDirectory(path) || content(path) != null;
    }

    public boolean isDirectory(List<String> path) {
        return children(path) != null;
    }

    /** The names under directory {@code path}, sorted; null when it is not a directory. */
    public List<String> children(List<String> path) {
        if (path.isEmpty()) {
            return ROOT;
        }
        String top = path.get(0);
        return switch (path.size()) {
            case 1 -> topChildren(top);
            case 2 -> switch (top) {
                case "topics" -> topicChildren(image.topics().topic(path.get(1)), "id");
                case "topicIds" -> topicChildren(topicById(path.get(1)), "name");
                case "configs" -> CONFIG_TYPES.contains(path.get(1)) ? configNames(configType(path.get(1))) : null;
                case "scram" -> image.scram().credentials(path.get(1)).isEmpty() ? null
                        : image.scram().credentials(path.get(1)).keySet().map(ScramMechanism::mechanismName).toJavaList();
                default -> null;
            };
            default -> null;
        };
    }

    /** The text of file {@code path}; null when it is not a file. */
    public String content(List<String> path) {
        if (path.size() == 1) {
            return path.get(0).equals("provenance") ? "lastOffset: " + image.provenance().lastOffset()
                    + "\nlastEpoch: " + image.provenance().lastEpoch() : null;
        }
        if (path.size() == 2) {
            return switch (path.get(0)) {
                case "brokers" -> broker(path.get(1));
                case "acls" -> acl(path.get(1));
                case "features" -> image.features().level(path.get(1)).map(String::valueOf).orElse(null);
                default -> null;
            };
        }
        if (path.size() == 3) {
            return switch (path.get(0)) {
                case "topics" -> topicFile(image.topics().topic(path.get(1)), path.get(2));
                case "topicIds" -> topicFile(topicById(path.get(1)), path.get(2));
                case "configs" -> CONFIG_TYPES.contains(path.get(1)) ? configs(configType(path.get(1)), path.get(2))
                        : null;
                case "scram" -> scramCredential(path.get(1), path.get(2));
                default -> null;
            };
        }
        return null;
    }

    private List<String> topChildren(String top) {
        return switch (top) {
            case "brokers" -> image.cluster().sortedById().stream().map(b -> String.valueOf(b.id())).toList();
            case "topics" -> image.topics().sortedByName().stream().map(TopicImage::name).toList();
            case "topicIds" -> {
                List<String> ids = new ArrayList<>(image.topics().topicCount());
                image.topics().byId().keySet().forEach(id -> ids.add(TopicIds.toBase64(id.toUuid())));
                ids.sort(null);
                yield ids;
            }
            case "configs" -> CONFIG_TYPES;
            case "acls" -> image.acls().sortedById().stream().map(a -> TopicIds.toBase64(a.getId())).toList();
            case "scram" -> image.scram().users();
            case "features" -> new ArrayList<>(new TreeMap<>(image.features().levels()).keySet());
            default -> null;
        };
    }

    private static List<String> topicChildren(TopicImage topic, String extra) {
        if (topic == null) {
            return null;
        }
        List<String> names = new ArrayList<>(topic.partitionCount() + 1);
        names.add(extra);
        for (int i = 0; i < topic.partitionCount(); i++) {
            names.add(String.valueOf(i));
        }
        return names;
    }

    private String topicFile(TopicImage topic, String name) {
        if (topic == null) {
            return null;
        }
        if (name.equals("id")) {
            return TopicIds.toBase64(topic.id().toUuid());
        }
        if (name.equals("name")) {
            return topic.name();
        }
        Integer index = number(name);
        PartitionRegistration partition = index == null ? null : topic.partition(index);
        return partition == null ? null : partition(topic, index, partition);
    }

    static String partition(TopicImage topic, int index, PartitionRegistration partition) {
        return "topic: " + topic.name() + "\ntopicId: " + TopicIds.toBase64(topic.id().toUuid()) + "\npartition: "
                + index + "\nleader: " + partition.leader() + "\nleaderEpoch: " + partition.leaderEpoch()
                + "\npartitionEpoch: " + partition.partitionEpoch() + "\nreplicas: " + ids(partition.replicas())
                + "\nisr: " + ids(partition.isr());
    }

    private TopicImage topicById(String text) {
        try {
            return text.length() == 22 ? image.topics().topic(UuidKey.of(TopicIds.fromBase64(text))) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private String broker(String idText) {
        Integer id = number(idText);
        BrokerRegistration broker = id == null ? null : image.cluster().broker(id);
        if (broker == null) {
            return null;
        }
        List<String> endpoints = new ArrayList<>();
        for (BrokerEndpoint endpoint : broker.endpoints()) {
            endpoints.add(endpoint.getName() + "://" + endpoint.getHost() + ":" + endpoint.getPort());
        }
        return "id: " + broker.id() + "\nincarnationId: " + TopicIds.toBase64(broker.incarnationId()) + "\nepoch: "
                + broker.epoch() + "\nendpoints: " + String.join(",", endpoints) + "\nrack: "
                + (broker.hasRack() ? broker.rack() : "none") + "\nfenced: " + broker.fenced();
    }

    private String acl(String idText) {
        for (AccessControlEntryRecord entry : image.acls().sortedById()) {
            if (TopicIds.toBase64(entry.getId()).equals(idText)) {
                return RecordText.text(entry);
            }
        }
        return null;
    }

    private String scramCredential(String user, String mechanismName) {
        return ScramMechanism.fromMechanismName(mechanismName).flatMap(m -> image.scram().credential(user, m))
                .map(c -> "user: " + user + "\nmechanism: " + mechanismName + "\niterations: " + c.iterations()
                        + "\nsalt: [redacted]\nstoredKey: [redacted]\nserverKey: [redacted]")
                .orElse(null);
    }

    private static ConfigResourceType configType(String name) {
        return name.equals("topic") ? ConfigResourceType.CONFIG_RESOURCE_TOPIC
                : ConfigResourceType.CONFIG_RESOURCE_BROKER;
    }

    private List<String> configNames(ConfigResourceType type) {
        return image.configs().sortedResources().stream().filter(r -> r.type() == type).map(ConfigResource::name)
                .toList();
    }

    private String configs(ConfigResourceType type, String name) {
        Map<String, String> configs = image.configs().configs(new ConfigResource(type, name));
        if (configs.isEmpty()) {
            return null;
        }
        List<String> lines = new ArrayList<>();
        configs.forEach((key, value) -> lines.add(key + "=" + value));
        return String.join("\n", lines);
    }

    private static String ids(int[] ids) {
        StringBuilder text = new StringBuilder();
        for (int id : ids) {
            text.append(text.length() == 0 ? "" : ",").append(id);
        }
        return text.toString();
    }

    /** A non-negative decimal without leading zeros, or null. */
    private static Integer number(String text) {
        if (text.isEmpty() || text.length() > 9 || (text.length() > 1 && text.charAt(0) == '0')) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return null;
            }
        }
        return Integer.parseInt(text);
    }
}
