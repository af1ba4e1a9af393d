package io.metaquorum.sim.mutation;

import java.io.PrintStream;

/**
 * What a mutant world (a {@link MutantClassLoader}) offers the caller that made it. Only JDK
 * types and this package's cross between the worlds, so a run is described by its command
 * line, the same one that replays it.
 */
public interface MutantEntry {
    /** {@code mq-simulate} with these arguments, run in the mutant world; returns its exit status. */
    int simulate(String[] args, PrintStream out, PrintStream err);

    /** The one run the arguments name (its {@code --seed} and shape), as the checker self-test judges it. */
    RunOutcome run(String[] args);
}
