package io.metaquorum.sim.mutation;

/**
 * How one simulation run ended, in JDK types only, so it can leave a mutant world.
 *
 * @param invariant    the violated invariant's name; null if the run passed
 * @param message      the failure's message; null if the run passed
 * @param failureEvent the index of the event after which the failure was seen; 0 if passed
 * @param summaryLine  {@code seed S events E trace HASH}, the run's trace digest
 * @param description  everything needed to replay and debug the run
 * @param world        the name of the class loader's world the run ran in ({@code caller} if not a mutant one)
 */
public record RunOutcome(long seed, boolean passed, String invariant, String message, long failureEvent,
                         String phase, String summaryLine, String description, String world) {
}
