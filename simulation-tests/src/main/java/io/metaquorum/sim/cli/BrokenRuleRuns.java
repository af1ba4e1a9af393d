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
 * Runs of a broken variant that is a mutation of production code: they run in the world of
 * that mutation ({@link MutantWorlds}), entered through this class. Outside that world,
 * {@link #needsMutant} says a run must go there; inside it (or in the control world, where
 * nothing is swapped), this class is the world's {@link MutantEntry}.
 */
public final class BrokenRuleRuns implements MutantEntry {
    /** Made inside a mutant world by {@link MutantWorlds}. */
    public BrokenRuleRuns() {
    }

    /** Whether a run of {@code variant} must move to its mutant world: this world does not run its mutation. */
    static boolean needsMutant(BrokenVariant variant) {
        return variant.mutation() != null
                && !variant.mutation().equals(MutantClassLoader.mutationOf(BrokenRuleRuns.class));
    }

    /** One run, in the mutant world if its variant needs one, else here. */
    public static RunOutcome outcome(SimulationOptions options) {
        if (needsMutant(options.variant())) {
            return MutantWorlds.entry(options.variant().mutation(), BrokenRuleRuns.class)
                    .run(options.replayArguments());
        }
        return outcomeOf(Simulation.run(options));
    }

    /** One run of an unbroken variant in the control world: the mutation machinery with nothing swapped. */
    public static RunOutcome controlOutcome(SimulationOptions options) {
        return MutantWorlds.control(BrokenRuleRuns.class).run(options.replayArguments());
    }

    /** {@code mq-simulate} in the mutant world of {@code variant}. */
    static int simulateInMutant(BrokenVariant variant, String[] args, PrintStream out, PrintStream err) {
        return MutantWorlds.entry(variant.mutation(), BrokenRuleRuns.class).simulate(args, out, err);
    }

    @Override
    public int simulate(String[] args, PrintStream out, PrintStream err) {
        return new SimulateCommand(out, err).execute(args);
    }

    @Override
    public RunOutcome run(String[] args) {
        return outcomeOf(Simulation.run(SimulateArguments.parse(args).template()));
    }

    /** How {@code result} ended, in the types that cross between worlds. */
    public static RunOutcome outcomeOf(SimulationResult result) {
        String world = MutantClassLoader.isDefinedAgain(BrokenRuleRuns.class)
                ? BrokenRuleRuns.class.getClassLoader().getName() : "caller";
        if (result.passed()) {
            return new RunOutcome(result.options().seed(), true, null, null, 0, result.phase(),
                    result.summaryLine(), result.summaryLine() + " passed", world);
        }
        return new RunOutcome(result.options().seed(), false, result.failure().invariant(),
                result.failure().getMessage(), result.failureEvent(), result.phase(), result.summaryLine(),
                result.describe(), world);
    }
}
