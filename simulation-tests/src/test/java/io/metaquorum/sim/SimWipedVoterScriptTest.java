package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.invariant.VoterVoteCheck;
import io.metaquorum.sim.mutation.MutantWorlds;
import io.metaquorum.sim.mutation.RunOutcome;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The disk-amnesia script ({@link WipedVoterScript}) with and without the planted bug
 * {@code wiped-voter-votes}: production keeps the committed entries (the wiped voter comes back
 * as an observer); the mutant loses them, which {@code committed-entry-stable} names when the
 * direct check {@value VoterVoteCheck#NAME} is left out.
 */
class SimWipedVoterScriptTest {
    private static final String MUTATION = BrokenVariant.WIPED_VOTER_VOTES.mutation();

    private static RunOutcome mutant(long seed, boolean withoutDirectCheck) {
        return MutantWorlds.entry(MUTATION, WipedVoterScript.class).run(withoutDirectCheck
                ? new String[] {"--seed", Long.toString(seed), "--without-direct-check"}
                : new String[] {"--seed", Long.toString(seed)});
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void productionKeepsTheCommittedEntries(long seed) {
        RunOutcome outcome = new WipedVoterScript().run(new String[] {"--seed", Long.toString(seed)});
        assertTrue(outcome.passed(), outcome.description());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void theWipedVoterVotingLosesACommittedEntry(long seed) {
        RunOutcome outcome = mutant(seed, true);
        System.out.println("wiped-voter-votes script: " + outcome.description());
        assertEquals("mutation-" + MUTATION, outcome.world());
        assertFalse(outcome.passed(), "the mutant kept every committed entry: " + outcome.description());
        assertEquals("committed-entry-stable", outcome.invariant(), outcome.description());
    }

    /**
     * With every check on, the mutant fails too: by {@value VoterVoteCheck#NAME} when the wiped
     * replica's vote elects node 3, or by {@code committed-entry-stable} when no vote is needed
     * (seed 2: node 3 still leads the epoch it led before it was cut off, and counts the wiped
     * replica's fetches as the voter's).
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void withEveryCheckOnTheMutantFailsToo(long seed) {
        RunOutcome outcome = mutant(seed, false);
        assertFalse(outcome.passed(), outcome.description());
        assertTrue(Set.of(VoterVoteCheck.NAME, "committed-entry-stable").contains(outcome.invariant()),
                outcome.description());
    }
}
