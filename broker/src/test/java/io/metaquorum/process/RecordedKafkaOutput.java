package io.metaquorum.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Kafka 4.4.0 tool printed against a real Kafka 4.4.0 cluster, recorded once into a test
 * resource ({@code kafka-4.4.0/*.txt}: {@code # } comments, then {@code ### NAME} sections), so
 * a test can hold the same command against metaquorum to it without running Kafka in the suite.
 *
 * <p>{@link #masked} hides what differs between any two clusters and is not the tool's format:
 * topic ids, and which broker ids lead and hold replicas (each id becomes {@code N}, so the
 * number of replicas still counts). It also drops {@code min.insync.replicas=1} from a topic's
 * {@code Configs:}: Kafka 4.1 and later add that cluster-level config when eligible leader
 * replicas are on, which metaquorum does not implement (docs/kafka-compatibility.md).
 */
final class RecordedKafkaOutput {
    private static final Pattern BROKER_IDS = Pattern.compile("(Leader|Replicas|Isr): ([0-9,]*)");
    private final Map<String, String> sections;

    private RecordedKafkaOutput(Map<String, String> sections) {
        this.sections = sections;
    }

    static RecordedKafkaOutput load(String resource) {
        try (InputStream in = RecordedKafkaOutput.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("no test resource " + resource);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RecordedKafkaOutput parse(String text) {
        Map<String, String> sections = new LinkedHashMap<>();
        String name = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("### ")) {
                if (name != null) {
                    sections.put(name, body.toString());
                }
                name = line.substring(4).trim();
                body.setLength(0);
            } else if (name != null && !(line.isEmpty() && body.isEmpty())) {
                body.append(line).append('\n');
            }
        }
        if (name != null) {
            sections.put(name, body.toString().replaceAll("\n+$", "\n"));
        }
        return new RecordedKafkaOutput(sections);
    }

    /** The recorded output of section {@code name}, masked. */
    String section(String name) {
        String body = sections.get(name);
        if (body == null) {
            throw new IllegalArgumentException("no recorded section " + name + " in " + sections.keySet());
        }
        return masked(body.equals("\n") ? "" : body);
    }

    static String masked(String output) {
        Matcher ids = BROKER_IDS.matcher(output.replaceAll("TopicId: \\S+", "TopicId: ID")
                .replaceAll("(Configs: )min\\.insync\\.replicas=1,?", "$1"));
        StringBuilder masked = new StringBuilder();
        while (ids.find()) {
            ids.appendReplacement(masked, ids.group(1) + ": " + ids.group(2).replaceAll("[0-9]+", "N"));
        }
        return ids.appendTail(masked).toString();
    }
}
