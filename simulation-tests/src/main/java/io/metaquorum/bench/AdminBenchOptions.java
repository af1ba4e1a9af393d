package io.metaquorum.bench;

import io.metaquorum.net.HostPort;
import io.metaquorum.security.grpc.ClientSecurity;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options every admin workload shares (a picocli mixin). */
final class AdminBenchOptions {
    /** The workload's own command, to refuse an option the chosen client cannot honour as a usage error. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec workload;

    @Option(names = "--bootstrap-server", required = true, paramLabel = "H:P[,H:P...]",
            description = "any node of the cluster (the admin API is served on every controller listener); with "
                    + "--client kafka, Kafka-protocol listeners (a Kafka bootstrap list)")
    String bootstrapServer;

    @Option(names = "--client", paramLabel = "grpc|kafka", converter = BenchClient.Converter.class,
            description = "grpc (default): metaquorum's admin client; kafka: Apache Kafka's Admin client, against "
                    + "metaquorum's Kafka listener or a Kafka cluster")
    BenchClient client = BenchClient.GRPC;

    @Option(names = "--brokers", description = "unfenced brokers the cluster must have before measuring (default 3)")
    int brokers = 3;

    @Option(names = "--timeout-ms", description = "overall deadline of one admin call (default 60000)")
    long timeoutMs = 60_000;

    @Option(names = "--command-config", paramLabel = "FILE",
            description = "Kafka client properties (security.protocol=SSL, ssl.*) for a TLS cluster; with --client "
                    + "kafka, all of them are given to Kafka's Admin client")
    Path commandConfig;

    /** How to connect: TLS as {@code --command-config} says, else plaintext. */
    ClientSecurity security() {
        return commandConfig == null ? ClientSecurity.PLAINTEXT : ClientSecurity.load(commandConfig);
    }

    /** The bootstrap nodes; throws {@link IllegalArgumentException} naming a malformed one. */
    List<HostPort> bootstrap() {
        return Arrays.stream(bootstrapServer.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .map(HostPort::parse).toList();
    }

    /** Checks the shared options; throws {@link IllegalArgumentException} saying which is wrong. */
    void validate() {
        if (bootstrap().isEmpty()) {
            throw new IllegalArgumentException("--bootstrap-server needs at least one HOST:PORT");
        }
        if (brokers < 1) {
            throw new IllegalArgumentException("--brokers must be >= 1");
        }
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("--timeout-ms must be > 0");
        }
    }

    boolean kafka() {
        return client == BenchClient.KAFKA;
    }

    /** True when {@code option} was given on the command line (not left at its default). */
    boolean given(String option) {
        return workload != null && workload.commandLine() != null && workload.commandLine().getParseResult() != null
                && workload.commandLine().getParseResult().hasMatchedOption(option);
    }

    /**
     * Refuses, as a usage error (exit 2), an option Kafka's Admin client cannot honour, saying
     * why, rather than measuring something else than was asked.
     */
    void refuseWithKafka(String option, String why) {
        String message = option + " is not available with --client kafka: " + why;
        if (workload == null || workload.commandLine() == null) {
            throw new IllegalArgumentException(message);
        }
        throw new ParameterException(workload.commandLine(), message);
    }

    /** Checks that {@code value} of option {@code name} is at least 1. */
    static void requirePositive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, got " + value);
        }
    }

    /** Checks that {@code value} of option {@code name} is at least 0. */
    static void requireNonNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + value);
        }
    }
}
