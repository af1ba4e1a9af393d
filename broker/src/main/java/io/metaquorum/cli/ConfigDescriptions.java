package io.metaquorum.cli;

import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.DescribeConfigsResult;
import io.metaquorum.protocol.DescribedConfig;
import java.util.Comparator;
import java.util.List;
import java.util.StringJoiner;

/**
 * The printed forms of {@code mq-configs --describe}. Text as kafka-configs.sh: a heading per
 * topic, then one line per config the topic sets itself ({@code  k=v sensitive=false
 * synonyms={DYNAMIC_TOPIC_CONFIG:k=v}}; the synonyms show only that source, as this API
 * reports no others). JSON: every config the node returned, with its source, so scripts can
 * filter. Configs sorted by name; a sensitive or absent value prints as {@code null}.
 */
final class ConfigDescriptions {
    private ConfigDescriptions() {
    }

    private static List<DescribedConfig> sorted(DescribeConfigsResult result) {
        return result.getConfigsList().stream().sorted(Comparator.comparing(DescribedConfig::getName)).toList();
    }

    private static String value(DescribedConfig config) {
        return config.getIsSensitive() || !config.hasValue() ? null : config.getValue();
    }

    static String text(DescribeConfigsResult result) {
        StringBuilder text = new StringBuilder("Dynamic configs for topic ").append(result.getResourceName())
                .append(" are:\n");
        for (DescribedConfig config : sorted(result)) {
            if (config.getConfigSource() != ConfigSource.DYNAMIC_TOPIC_CONFIG
                    && config.getConfigSource() != ConfigSource.CONFIG_SOURCE_UNKNOWN) {
                continue;
            }
            String pair = config.getName() + "=" + value(config);
            text.append("  ").append(pair).append(" sensitive=").append(config.getIsSensitive())
                    .append(" synonyms={").append(config.getIsSensitive() ? "" : "DYNAMIC_TOPIC_CONFIG:" + pair)
                    .append("}\n");
        }
        return text.toString();
    }

    static String json(List<DescribeConfigsResult> results) {
        StringJoiner entities = new StringJoiner(", ", "{\"entityType\": \"topics\", \"entities\": [", "]}");
        for (DescribeConfigsResult result : results) {
            StringJoiner configs = new StringJoiner(", ", "[", "]");
            for (DescribedConfig config : sorted(result)) {
                configs.add("{\"name\": " + JsonText.string(config.getName())
                        + ", \"value\": " + JsonText.string(value(config))
                        + ", \"source\": " + JsonText.string(config.getConfigSource().name())
                        + ", \"sensitive\": " + config.getIsSensitive()
                        + ", \"readOnly\": " + config.getReadOnly() + "}");
            }
            entities.add("{\"entityName\": " + JsonText.string(result.getResourceName()) + ", \"configs\": " + configs
                    + "}");
        }
        return entities.toString();
    }
}
