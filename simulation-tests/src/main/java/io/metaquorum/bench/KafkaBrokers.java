package io.metaquorum.bench;

import io.metaquorum.cli.CommandLines;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kafka-peer brokers}: the brokers a Kafka cluster has registered, fenced or not, one
 * line each in mq-metadata brokers' shape, through Kafka's Admin client; with
 * {@code --min-unfenced}, first waits until that many are unfenced. bin/kafka-peer start waits
 * on it and status reads each broker's state from it; it runs from the simulation module
 * beside the workloads, so kafka-peer compiles nothing of its own.
 */
@Command(name = "kafka-peer brokers", mixinStandardHelpOptions = true,
        description = "The registered brokers of a Kafka cluster, fenced or not.")
final class KafkaBrokers implements Callable<Integer> {
    @Option(names = "--bootstrap-server", required = true, paramLabel = "H:P[,H:P...]",
            description = "the cluster's brokers")
    String bootstrapServer;

    @Option(names = "--min-unfenced", description = "wait (up to --timeout-ms) until this many brokers are "
            + "unfenced, and fail otherwise (default 0: no wait)")
    int minUnfenced;

    @Option(names = "--timeout-ms", description = "deadline of one admin call and of the wait (default 60000)")
    int timeoutMs = 60_000;

    @Override
    public Integer call() throws Exception {
        AdminBenchOptions options = new AdminBenchOptions();
        options.bootstrapServer = bootstrapServer;
        options.timeoutMs = timeoutMs;
        try (Admin admin = KafkaBenchSession.connect(options)) {
            list(admin);
        } catch (ExecutionException e) {
            throw new IllegalStateException(KafkaBenchSession.describe(e), e);
        }
        return 0;
    }

    private void list(Admin admin) throws Exception {
        if (minUnfenced > 0) {
            KafkaBenchSession.awaitUnfenced(admin, minUnfenced, timeoutMs, timeoutMs);
        }
        List<Node> nodes = new ArrayList<>(KafkaBenchSession.brokers(admin, timeoutMs));
        nodes.sort((a, b) -> Integer.compare(a.id(), b.id()));
        for (Node node : nodes) {
            System.out.printf("\tBroker: %d\tEndpoint: %s:%d\tRack: %s\tState: %s%n", node.id(), node.host(),
                    node.port(), node.hasRack() ? node.rack() : "-", node.isFenced() ? "fenced" : "unfenced");
        }
    }

    public static void main(String[] args) {
        CommandLines.exitWith(new KafkaBrokers(), args);
    }
}
