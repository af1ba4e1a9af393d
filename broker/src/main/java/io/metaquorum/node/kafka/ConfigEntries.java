package io.metaquorum.node.kafka;

import io.metaquorum.metadata.controller.TopicConfigCatalog;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.DescribedConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigType;

/**
 * One described config as Kafka's DescribeConfigs carries it, at the request's version.
 *
 * <p>Synonyms (v1+, when asked): the values the config could take, the one in force first.
 * Here a topic config has at most two: the value set on the topic (DYNAMIC_TOPIC_CONFIG) and
 * the catalogue's default (DEFAULT_CONFIG). Kafka names its default after the broker setting
 * it comes from (log.retention.ms for retention.ms); we have no broker-level topic defaults,
 * so the default is listed under the topic config's own name. A broker config has itself.
 *
 * <p>Type (v3+): a topic config's catalogue type; UNKNOWN for broker configs, which have no
 * catalogue here. Documentation (v3+) is null, asked for or not: we hold no documentation text
 * for configs, and Kafka's client reads null as "none".
 */
final class ConfigEntries {
    private static final short SYNONYMS_VERSION_MIN = 1;
    private static final short TYPE_VERSION_MIN = 3;

    private final short version;
    private final boolean includeSynonyms;

    ConfigEntries(short version, boolean includeSynonyms) {
        this.version = version;
        this.includeSynonyms = includeSynonyms;
    }

    DescribeConfigsResourceResult entry(ConfigResourceType resourceType, DescribedConfig config) {
        String value = config.hasValue() ? config.getValue() : null;
        DescribeConfigsResourceResult out = new DescribeConfigsResourceResult().setName(config.getName())
                .setValue(value).setReadOnly(config.getReadOnly()).setIsSensitive(config.getIsSensitive())
                .setConfigSource((byte) config.getConfigSourceValue());
        if (includeSynonyms && version >= SYNONYMS_VERSION_MIN) {
            out.setSynonyms(synonyms(resourceType, config, value));
        }
        if (version >= TYPE_VERSION_MIN) {
            out.setConfigType(type(resourceType, config.getName()).id()).setDocumentation(null);
        }
        return out;
    }

    private static List<DescribeConfigsSynonym> synonyms(ConfigResourceType resourceType, DescribedConfig config,
                                                         String value) {
        List<DescribeConfigsSynonym> out = new ArrayList<>(2);
        out.add(new DescribeConfigsSynonym().setName(config.getName()).setValue(value)
                .setSource((byte) config.getConfigSourceValue()));
        TopicConfigCatalog.Entry catalogued = TopicConfigCatalog.entriesByName().get(config.getName());
        if (resourceType == ConfigResourceType.CONFIG_RESOURCE_TOPIC && catalogued != null
                && config.getConfigSource() == ConfigSource.DYNAMIC_TOPIC_CONFIG) {
            out.add(new DescribeConfigsSynonym().setName(config.getName()).setValue(catalogued.defaultValue())
                    .setSource((byte) ConfigSource.DEFAULT_CONFIG_VALUE));
        }
        return out;
    }

    private static ConfigType type(ConfigResourceType resourceType, String name) {
        TopicConfigCatalog.Entry catalogued = TopicConfigCatalog.entriesByName().get(name);
        if (resourceType != ConfigResourceType.CONFIG_RESOURCE_TOPIC || catalogued == null) {
            return ConfigType.UNKNOWN;
        }
        return switch (catalogued.type()) {
            case BOOLEAN -> ConfigType.BOOLEAN;
            case INT -> ConfigType.INT;
            case LONG -> ConfigType.LONG;
            case DOUBLE -> ConfigType.DOUBLE;
            case STRING -> ConfigType.STRING;
            case LIST -> ConfigType.LIST;
        };
    }
}
