package io.metaquorum.cli;

import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mq-metadata remove-controller --controller-id N --controller-directory-id ID}: takes
 * a voter out of the voter set (KIP-853's RemoveVoter, Kafka's {@code kafka-metadata-quorum.sh
 * remove-controller}). A leader that removes itself leads until the change commits, then
 * resigns; the removed node keeps running as an observer until it is stopped.
 */
@Command(name = "remove-controller", mixinStandardHelpOptions = true,
        description = "Removes a voter, named by node id and directory id (KIP-853 RemoveVoter; like "
                + "kafka-metadata-quorum.sh remove-controller). mq-metadata quorum --json lists the directory ids.")
final class RemoveControllerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;
    @Mixin
    CommandConfigOption commandConfig;

    @Option(names = "--bootstrap-controller", required = true, paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "Controllers to find the leader from, in order.")
    String bootstrapControllers;

    @Option(names = "--controller-id", required = true, paramLabel = "N", description = "The voter's node id.")
    int controllerId;

    @Option(names = "--controller-directory-id", required = true, paramLabel = "ID",
            description = "The voter's directory id (base64, as mq-metadata quorum --json prints it).")
    String controllerDirectoryId;

    @Option(names = "--dry-run", description = "Print the change and the leader it would go to; send nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (controllerId < 0) {
            throw new CommandFailure("--controller-id must be >= 0, got " + controllerId);
        }
        Uuid directoryId = parseDirectoryId(controllerDirectoryId);
        List<HostPort> controllers = QuorumCommand.parseControllers(bootstrapControllers);
        QuorumLeaderLookup.LeaderAnswer leader = QuorumLeaderLookup.findLeader(controllers,
                QuorumCommand.REQUEST_TIMEOUT_MS, commandConfig.security());
        String voter = "controller " + controllerId + " (directory id " + controllerDirectoryId + ")";
        if (dryRun) {
            out.println("Would remove " + voter + " from the voters through the leader at " + leader.address() + ".");
            out.flush();
            return CommandLines.EXIT_OK;
        }
        RemoveVoterResponse response;
        try (QuorumClient client = new QuorumClient(leader.address().toAddress(),
                AddControllerCommand.CHANGE_TIMEOUT_MS, commandConfig.security().credentials())) {
            response = client.removeVoter(RemoveVoterRequest.newBuilder()
                    .setClusterId(leader.response().getClusterId()).setVoterId(controllerId)
                    .setVoterDirectoryId(directoryId).build());
        }
        if (response.getErrorCode() != ErrorCode.NONE) {
            throw new CommandFailure("removing " + voter + " failed: " + response.getErrorCode()
                    + (response.getErrorMessage().isEmpty() ? "" : ": " + response.getErrorMessage()));
        }
        out.println("Removed " + voter + " from the voters.");
        out.flush();
        return CommandLines.EXIT_OK;
    }

    static Uuid parseDirectoryId(String text) {
        try {
            Uuid id = TopicIds.fromBase64(text.trim());
            if (id.equals(TopicIds.ZERO)) {
                throw new IllegalArgumentException("the all-zero id names no directory");
            }
            return id;
        } catch (IllegalArgumentException e) {
            throw new CommandFailure("--controller-directory-id: not a directory id: '" + text + "' ("
                    + e.getMessage() + ")");
        }
    }
}
