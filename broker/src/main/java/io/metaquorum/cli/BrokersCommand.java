package io.metaquorum.cli;

import io.metaquorum.client.AdminClient;
import io.metaquorum.client.AdminException;
import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribedBroker;
import io.metaquorum.net.HostPort;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mq-metadata brokers}: the registered brokers as the asked node's image has them
 * (DescribeCluster): id, endpoint, rack, broker epoch, fenced or not. With
 * {@code --min-unfenced N} it exits 3 unless at least N brokers are unfenced, so scripts can
 * wait for a cluster to be ready.
 */
@Command(name = "brokers", mixinStandardHelpOptions = true,
        description = "Lists the registered brokers (DescribeCluster) as any node's image has them.")
public final class BrokersCommand implements Callable<Integer> {
    static final int EXIT_NOT_ENOUGH = 3;
    private static final long TIMEOUT_MS = 10_000;

    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    CommandConfigOption commandConfig;
    @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT[,HOST:PORT...]", split = ",", hideParamSyntax = true,
            required = true, description = "Nodes to ask (any node; comma-separated or repeated).")
    List<String> bootstrapServers = new ArrayList<>();
    @Option(names = "--min-unfenced", paramLabel = "N", description = "Exit 3 unless at least N brokers are unfenced.")
    int minUnfenced;
    @Option(names = "--json", description = "One JSON object.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            List<HostPort> bootstrap = TopicArguments.bootstrap(bootstrapServers);
            DescribeClusterResponse cluster;
            try (AdminClient client = AdminClient.connect(bootstrap, commandConfig.security())) {
                cluster = client.describeCluster(TIMEOUT_MS);
            }
            List<DescribedBroker> brokers = new ArrayList<>(cluster.getBrokersList());
            brokers.sort(Comparator.comparingInt(DescribedBroker::getBrokerId));
            out.println(json ? json(cluster, brokers) : text(cluster, brokers));
            long unfenced = brokers.stream().filter(b -> !b.getFenced()).count();
            return unfenced >= minUnfenced ? CommandLines.EXIT_OK : EXIT_NOT_ENOUGH;
        } catch (AdminError | AdminException failure) {
            return AdminError.print(failure, err, verbose.verbose);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private static String text(DescribeClusterResponse cluster, List<DescribedBroker> brokers) {
        StringBuilder text = new StringBuilder("ClusterId: " + cluster.getClusterId() + "\tControllerId: "
                + cluster.getHeader().getControllerId() + "\tMetadataOffset: "
                + cluster.getHeader().getMetadataOffset());
        for (DescribedBroker broker : brokers) {
            text.append("\n\tBroker: ").append(broker.getBrokerId()).append("\tEndpoint: ").append(broker.getHost())
                    .append(':').append(broker.getPort()).append("\tRack: ")
                    .append(broker.getRack().isEmpty() ? "-" : broker.getRack()).append("\tEpoch: ")
                    .append(broker.getBrokerEpoch()).append("\tState: ").append(broker.getFenced() ? "fenced" : "unfenced");
        }
        return text.toString();
    }

    private static String json(DescribeClusterResponse cluster, List<DescribedBroker> brokers) {
        StringBuilder text = new StringBuilder("{\"clusterId\": ").append(JsonText.string(cluster.getClusterId()))
                .append(", \"controllerId\": ").append(cluster.getHeader().getControllerId())
                .append(", \"metadataOffset\": ").append(cluster.getHeader().getMetadataOffset())
                .append(", \"brokers\": [");
        for (int i = 0; i < brokers.size(); i++) {
            DescribedBroker broker = brokers.get(i);
            text.append(i == 0 ? "" : ", ").append("{\"brokerId\": ").append(broker.getBrokerId())
                    .append(", \"host\": ").append(JsonText.string(broker.getHost()))
                    .append(", \"port\": ").append(broker.getPort())
                    .append(", \"rack\": ").append(JsonText.string(broker.getRack()))
                    .append(", \"brokerEpoch\": ").append(broker.getBrokerEpoch())
                    .append(", \"fenced\": ").append(broker.getFenced()).append('}');
        }
        return text.append("]}").toString();
    }
}
