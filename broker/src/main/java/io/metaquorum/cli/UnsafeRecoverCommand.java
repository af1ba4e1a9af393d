package io.metaquorum.cli;

import io.metaquorum.metadata.log.rocksdb.LockedLogException;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.tool.ForcedVoterSet;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.storage.StorageException;
import io.metaquorum.server.BootstrapVoters;
import io.metaquorum.server.InitialControllers;
import io.metaquorum.server.MetaProperties;
import io.metaquorum.server.ServerConfig;
import io.metaquorum.server.StorageFormatter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mq-metadata unsafe-recover --config FILE --voters ...}: the last resort once a
 * majority of the controllers is lost for good (etcd's {@code --force-new-cluster}, a
 * KIP-853 voter set forced in place). Run on a stopped survivor, it appends a VotersRecord of
 * the new set to the end of that node's log in a new epoch ({@link ForcedVoterSet}); started
 * again, the node takes that set and the new voters elect among themselves. Whatever the lost
 * majority committed beyond this log is gone, hence the flag that says so; without it the
 * command only prints what it would do.
 */
@Command(name = "unsafe-recover", mixinStandardHelpOptions = true,
        description = {"Last resort after losing a majority of the controllers for good: forces a new voter set "
                + "into the log of a STOPPED surviving controller (like etcd's --force-new-cluster).",
            "Appends a VotersRecord of --voters at the end of the node's log in a new epoch; started again, the "
                + "node takes that set and the new voters elect among themselves. Records the lost controllers "
                + "committed that this node does not hold are lost.",
            "Without --i-understand-data-may-be-lost it prints what it would do and exits 3, changing nothing."})
final class UnsafeRecoverCommand implements Callable<Integer> {
    /** The dry run's exit code: nothing failed, and nothing was done. */
    static final int EXIT_NOTHING_DONE = 3;
    static final String CONFIRM_FLAG = "--i-understand-data-may-be-lost";
    static final String VOTERS_FLAG = "--voters";

    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "The stopped surviving controller's properties file (node.id, metadata.log.dir).")
    Path config;

    @Option(names = VOTERS_FLAG, required = true, paramLabel = "ID@HOST:PORT:DIRECTORY_ID,...",
            description = "The new voter set, in mq-storage format --initial-controllers syntax; it must name this "
                    + "node with its own directory id. Usually this node alone.")
    String voters;

    @Option(names = CONFIRM_FLAG,
            description = "Do it: without this flag the command changes nothing.")
    boolean confirmed;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ServerConfig node = CommandLines.loadServerConfig(config);
        Path dir = node.metadataLogDir();
        MetaProperties meta = requireFormattedController(node, dir);
        VoterSet bootstrap = BootstrapVoters.read(dir).orElseThrow(() -> new CommandFailure(dir + " keeps no voter "
                + "set in its log: its quorum runs on the static controller.quorum.voters (kraft.version 0). "
                + "Instead: set controller.quorum.voters to the surviving controllers alone on each of them and "
                + "start them; with one survivor, it alone is the quorum"));
        VoterSet newVoters = parseVoters(voters, node.nodeId(), meta);
        if (!MetadataLogStore.exists(dir)) {
            throw new CommandFailure(dir + " holds no metadata log: controller " + node.nodeId() + " never ran, so "
                    + "it has nothing to recover from");
        }
        try (MetadataLogStore store = openStopped(node.nodeId(), dir)) {
            ForcedVoterSet.Plan plan = ForcedVoterSet.plan(store, bootstrap, newVoters);
            if (plan.currentVoters().equals(newVoters)) {
                throw new CommandFailure("the voters in the log are already " + newVoters + ": nothing to force; "
                        + "start the node");
            }
            describe(out, node, meta, dir, plan);
            if (!confirmed) {
                out.println("Nothing changed. This is the last resort after losing a majority of the controllers "
                        + "for good; to do it, run again with " + CONFIRM_FLAG + ".");
                out.flush();
                return EXIT_NOTHING_DONE;
            }
            long offset = ForcedVoterSet.apply(store, plan, System.currentTimeMillis());
            out.println("Done: appended the VotersRecord at offset " + offset + " in epoch " + plan.newEpoch()
                    + " and set the election state to epoch " + plan.newEpoch() + " (no vote, no leader).");
            out.println("  voters before: " + plan.currentVoters());
            out.println("  voters now:    " + newVoters);
            nextSteps(out, meta, newVoters, node.nodeId());
        } catch (StorageException | IllegalStateException e) {
            throw new CommandFailure(CommandLines.describe(e), e);
        }
        out.flush();
        return CommandLines.EXIT_OK;
    }

    /** The node is a controller and its metadata directory is formatted for it, with a directory id. */
    private MetaProperties requireFormattedController(ServerConfig node, Path dir) {
        if (!node.isController()) {
            throw new CommandFailure(config + ": process.roles has no controller; only a controller holds a voter set");
        }
        try {
            StorageFormatter.requireFormatted(node, config);
            MetaProperties meta = MetaProperties.read(dir).orElseThrow();
            if (!meta.hasDirectoryId()) {
                throw new CommandFailure(dir + " has no directory.id in meta.properties (formatted before KIP-853): "
                        + "its voters are the static controller.quorum.voters");
            }
            return meta;
        } catch (IllegalStateException e) {
            throw new CommandFailure(e.getMessage(), e);
        }
    }

    /** The new set, which must name this node by its own directory id. */
    private static VoterSet parseVoters(String text, int nodeId, MetaProperties meta) {
        VoterSet parsed;
        try {
            parsed = InitialControllers.parse(text, VOTERS_FLAG);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(e.getMessage(), e);
        }
        if (!parsed.hasId(nodeId)) {
            throw new CommandFailure(VOTERS_FLAG + " must include this node, controller " + nodeId + " (as " + nodeId
                    + "@HOST:PORT:" + TopicIds.toBase64(meta.directoryId()) + "): it is the one that will lead");
        }
        if (!parsed.directoryIdOf(nodeId).equals(meta.directoryId())) {
            throw new CommandFailure(VOTERS_FLAG + " gives controller " + nodeId + " directory id "
                    + TopicIds.toBase64(parsed.directoryIdOf(nodeId)) + ", but its meta.properties says "
                    + TopicIds.toBase64(meta.directoryId()));
        }
        return parsed;
    }

    /** Opens the log for writing, which RocksDB's lock allows only while no node runs on it. */
    private static MetadataLogStore openStopped(int nodeId, Path dir) {
        try {
            return MetadataLogStore.open(dir);
        } catch (LockedLogException e) {
            throw new CommandFailure("controller " + nodeId + " is running (the lock on its metadata log in " + dir
                    + " is held): stop it first; unsafe-recover only changes a stopped node's log", e);
        }
    }

    private static void describe(PrintWriter out, ServerConfig node, MetaProperties meta, Path dir,
                                 ForcedVoterSet.Plan plan) {
        out.println("Controller " + node.nodeId() + " (directory id " + TopicIds.toBase64(meta.directoryId())
                + ", cluster " + meta.clusterId() + ") in " + dir + ":");
        out.println("  voters in the log:  " + plan.currentVoters());
        out.println("  log end offset:     " + plan.logEndOffset() + ", last epoch " + plan.logLastEpoch()
                + " (election state epoch " + plan.quorumStateEpoch() + ")");
        out.println("Forcing the voters to " + plan.newVoters() + ": a VotersRecord at offset " + plan.logEndOffset()
                + " in the new epoch " + plan.newEpoch() + ", and the election state set to that epoch with no "
                + "vote and no leader.");
        out.println("WARNING: records the lost controllers committed that this node does not hold (beyond its log "
                + "end offset " + plan.logEndOffset() + ") are lost for good, and records this node holds that were "
                + "never committed become committed. Run this on the survivor with the highest last epoch, then "
                + "the highest log end offset.");
    }

    private void nextSteps(PrintWriter out, MetaProperties meta, VoterSet newVoters, int nodeId) {
        out.println("Next steps:");
        out.println("  1. Start this node (bin/mq-server " + config + "): it elects itself"
                + (newVoters.size() > 1 ? " with the votes of the other new voters, started as they are" : "")
                + ".");
        out.println("  2. Every other controller (a replacement of a lost one, or a survivor not in " + VOTERS_FLAG
                + "): stop it, delete its metadata.log.dir, bin/mq-storage format --config FILE --cluster-id "
                + meta.clusterId() + " --no-initial-controllers, start it, then bin/mq-metadata add-controller "
                + "--config FILE.");
        out.println("  3. Check with bin/mq-metadata quorum that controller " + nodeId + " leads.");
    }
}
