package io.metaquorum.sim.cli;

import io.metaquorum.sim.BrokenVariant;
import io.metaquorum.sim.Simulation;
import io.metaquorum.sim.SimulationOptions;
import io.metaquorum.sim.SimulationResult;
import io.metaquorum.sim.mutation.MutantClassLoader;
import io.metaquorum.sim.mutation.MutantEntry;
import io.metaquorum.sim.mutation.MutantWorlds;
import io.metaquorum.sim.mutation.RunOutcome;
import java.io.PrintStream;

/**
 * Runs of a broken variant whose broken rule is a production class of the raft core: they
 * run in the mutant world where that class is its broken twin ({@link MutantWorlds}), entered
 * through this class. Outside that world, {@link #needsMutant} says a run must go there;
 * inside it, this class is the world's {@link MutantEntry}.
 */
public final class BrokenRuleRuns implements MutantEntry {
    /** Made inside a mutant world by {@link MutantWorlds}. */
    public BrokenRuleRuns() {
    }

    /** Whether a run of {@code variant} must move to its mutant world: it replaces a class not yet replaced here. */
    static boolean needsMutant(BrokenVariant variant) {
        return variant.replacedRule() != null && !MutantClassLoader.isTwin(variant.replacedRule());
    }

    /** One run, in the mutant world if its variant needs one, else here. */
    public static RunOutcome outcome(SimulationOptions options) {
        if (needsMutant(options.variant())) {
            return MutantWorlds.entry(options.variant().replacedRule(), BrokenRuleRuns.class)
                    .run(options.replayArguments());
        }
        return outcomeOf(Simulation.run(options));
    }

    /** {@code mq-simulate} in the mutant world of {@code variant}. */
    static int simulateInMutant(BrokenVariant variant, String[] args, PrintStream out, PrintStream err) {
        return MutantWorlds.entry(variant.replacedRule(), BrokenRuleRuns.class).simulate(args, out, err);
    }

    @Override
    public int simulate(String[] args, PrintStream out, PrintStream err) {
        return new SimulateCommand(out, err).execute(args);
    }

    @Override
    public RunOutcome run(String[] args) {
        return outcomeOf(Simulation.run(SimulateArguments.parse(args).template()));
    }

    private static RunOutcome outcomeOf(SimulationResult result) {
        if (result.passed()) {
            return new RunOutcome(result.options().seed(), true, null, null, 0, result.phase(),
                    result.summaryLine() + " passed");
        }
        return new RunOutcome(result.options().seed(), false, result.failure().invariant(),
                result.failure().getMessage(), result.failureEvent(), result.phase(), result.describe());
    }
}
