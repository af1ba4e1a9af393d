package io.metaquorum.bench;

import io.metaquorum.cli.CommandLines;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code mq-bench WORKLOAD [options]}: benchmark workloads; each prints one
 * {@code name value unit} line per figure, notes on lines starting with {@code #}.
 */
@Command(name = "mq-bench", mixinStandardHelpOptions = true,
        description = "Benchmark workloads; one 'name value unit' line per figure.",
        footer = "%nAlso image-scale [--partitions N]: the metadata image, its snapshot write and load at scale "
                + "(run from the simulation module; see mq-bench image-scale --help); and reconcile-pass "
                + "[--partitions N,N,...]: the broker's reconcile pass that applies one new topic, as the image "
                + "grows (see mq-bench reconcile-pass --help); describe-scale [--partitions N]: a paged "
                + "describe of every topic of an image that size, in process; authorize [--partitions N] [--acls A]: "
                + "the DESCRIBE decisions of a describe of every topic, ours against Kafka's StandardAuthorizer; "
                + "authorizer-overhead [--rounds N] [--count C]: create-one on a fresh mq-quickstart --secure "
                + "cluster with authorizer.enabled on and off, alternating (a script, bin/lib/authorizer-overhead.sh; "
                + "see mq-bench authorizer-overhead --help).",
        subcommands = {RaftAppendBench.class, FailoverBench.class, MembershipBench.class, CreateTopicsBench.class, CreateOneBench.class,
                DescribeAllBench.class, DeleteTopicsBench.class, PropagationBench.class,
                CatchUpBench.class, DumpBench.class, ShellOpenBench.class, DirRateBench.class})
public final class BenchTool implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return CommandLines.missingSubcommand(spec);
    }

    public static void main(String[] args) {
        CommandLines.exitWith(new BenchTool(), args);
    }
}
