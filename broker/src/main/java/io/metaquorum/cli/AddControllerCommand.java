package io.metaquorum.cli;

import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.AddVoterResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.VotersRecord;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import io.metaquorum.server.MetaProperties;
import io.metaquorum.server.ServerConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mq-metadata add-controller --config FILE}: makes the controller that runs with that
 * properties file a voter (KIP-853's AddVoter, Kafka's {@code kafka-metadata-quorum.sh
 * add-controller}). The node id, listener and metadata directory come from the file, the
 * directory id and cluster id from that directory's {@code meta.properties}; the request goes
 * to the leader, which accepts it once the node fetches from it as an observer and has caught up.
 */
@Command(name = "add-controller", mixinStandardHelpOptions = true,
        description = {"Adds the controller of --config to the voters (KIP-853 AddVoter; like kafka-metadata-quorum.sh "
                + "add-controller).",
            "The controller must run first, formatted with --no-initial-controllers, so that it fetches from the "
                + "leader as an observer; the leader refuses it until it has caught up."})
final class AddControllerCommand implements Callable<Integer> {
    /** How long the leader may take to commit the change. */
    static final int CHANGE_TIMEOUT_MS = 30_000;

    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    CommandConfigOption commandConfig;

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "The new controller's properties file (node.id, listeners, metadata.log.dir).")
    Path config;

    @Option(names = "--bootstrap-controller", paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "Controllers to find the leader from (default: the file's controller.quorum.voters).")
    String bootstrapControllers;

    @Option(names = "--dry-run", description = "Print the change and the leader it would go to; send nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ServerConfig node = CommandLines.loadServerConfig(config);
        if (!node.isController()) {
            throw new CommandFailure(config + ": process.roles has no controller; only a controller can vote");
        }
        MetaProperties meta = MetaProperties.read(node.metadataLogDir()).filter(MetaProperties::hasDirectoryId)
                .orElseThrow(() -> new CommandFailure(node.metadataLogDir() + " has no meta.properties with a "
                        + "directory.id: format it with mq-storage format --no-initial-controllers first"));
        HostPort listener = node.listener();
        AddVoterRequest request = AddVoterRequest.newBuilder().setClusterId(meta.clusterId())
                .setTimeoutMs(CHANGE_TIMEOUT_MS).setVoterId(node.nodeId()).setVoterDirectoryId(meta.directoryId())
                .addListeners(VotersRecord.Endpoint.newBuilder().setName(node.listenerSpec().name())
                        .setHost(listener.host()).setPort(listener.port()))
                .build();
        List<HostPort> controllers = bootstrapControllers != null
                ? QuorumCommand.parseControllers(bootstrapControllers) : new ArrayList<>(node.voters().values());
        QuorumLeaderLookup.LeaderAnswer leader = QuorumLeaderLookup.findLeader(controllers,
                QuorumCommand.REQUEST_TIMEOUT_MS, commandConfig.security());
        String change = "controller " + node.nodeId() + " (directory id " + TopicIds.toBase64(meta.directoryId())
                + ", listener " + listener + ")";
        if (dryRun) {
            out.println("Would add " + change + " to the voters of cluster " + meta.clusterId() + " through the "
                    + "leader at " + leader.address() + ".");
            out.flush();
            return CommandLines.EXIT_OK;
        }
        AddVoterResponse response;
        try (QuorumClient client = new QuorumClient(leader.address().toAddress(),
                CHANGE_TIMEOUT_MS + QuorumCommand.REQUEST_TIMEOUT_MS, commandConfig.security().credentials())) {
            response = client.addVoter(request);
        }
        if (response.getErrorCode() != ErrorCode.NONE) {
            throw new CommandFailure("adding " + change + " failed: " + response.getErrorCode()
                    + (response.getErrorMessage().isEmpty() ? "" : ": " + response.getErrorMessage()));
        }
        out.println("Added " + change + " to the voters.");
        out.flush();
        return CommandLines.EXIT_OK;
    }
}
