package io.metaquorum.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Which client an admin workload runs through ({@code --client}): metaquorum's own gRPC
 * admin client, or Kafka's {@link Admin} client against any Kafka-protocol bootstrap list
 * (metaquorum's Kafka listener or a real Kafka cluster), so that figures for both systems come
 * from the same client. Every run's first note line names it ({@link #note()}), so a figure is
 * never taken for the other client's.
 */
enum BenchClient {
    GRPC("grpc"),
    KAFKA("kafka");

    final String optionValue;

    BenchClient(String optionValue) {
        this.optionValue = optionValue;
    }

    /** The first note line of a run: {@code # client: grpc}, or Kafka's with the client's version. */
    String note() {
        return this == GRPC ? "# client: grpc" : "# client: kafka (Apache Kafka AdminClient " + kafkaVersion() + ")";
    }

    /** The version of the kafka-clients jar on the class path, as it records it itself. */
    static String kafkaVersion() {
        try (InputStream in = Admin.class.getResourceAsStream("/kafka/kafka-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown").trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code grpc} or {@code kafka}, lower case as written; anything else is a usage error (exit 2). */
    static final class Converter implements ITypeConverter<BenchClient> {
        @Override
        public BenchClient convert(String value) {
            for (BenchClient client : values()) {
                if (client.optionValue.equals(value)) {
                    return client;
                }
            }
            throw new TypeConversionException("expected grpc or kafka, got '" + value + "'");
        }
    }
}
