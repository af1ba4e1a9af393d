package io.metaquorum.cli;

import io.metaquorum.server.ClusterIds;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mq-storage random-uuid}: prints a new cluster id. */
@Command(name = "random-uuid", mixinStandardHelpOptions = true,
        description = "Prints a new cluster id: a random UUID as 22 characters of URL-safe base64.")
final class RandomUuidCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    VerboseOption verbose;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(ClusterIds.random());
        return CommandLines.EXIT_OK;
    }
}
