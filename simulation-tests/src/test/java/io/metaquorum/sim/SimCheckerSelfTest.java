package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.cli.BrokenRuleRuns;
import io.metaquorum.sim.invariant.InvariantChecker;
import io.metaquorum.sim.invariant.VoterVoteCheck;
import io.metaquorum.sim.mutation.RunOutcome;
import io.metaquorum.sim.system.invariant.AcknowledgedWritesCheck;
import io.metaquorum.sim.system.invariant.AuthorizationCheck;
import io.metaquorum.sim.system.invariant.BrokerDirectoryCheck;
import io.metaquorum.sim.system.invariant.ImageReplayCheck;
import io.metaquorum.sim.system.invariant.PartitionLeaderCheck;
import io.metaquorum.sim.system.world.AdminDriver;
import io.metaquorum.sim.system.world.CommitTap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The checkers can fail: each deliberately broken variant must be caught within its stated
 * number of seeds (default runs, seeds 1, 2, ...), by the check meant for it, asserted by
 * name and by what its message says. The first seed on which the broken run fails (and the
 * unbroken run of the same seed passes) must fail by that check: a variant that first trips
 * another check, a liveness bound it was not meant for, or the simulator itself, fails the
 * test. The README's table of what caught what is this test's output. A variant that is a
 * mutation of production code runs in the world of that mutation ({@link BrokenRuleRuns}:
 * production's classes with those of the patched sources swapped in); the baselines run
 * production's classes.
 */
class SimCheckerSelfTest {
    /** Seeds 1..baseline run unbroken once each and are shared by every variant. */
    private static final Map<Long, SimulationResult> BASELINES = new TreeMap<>();

    /**
     * What must catch a variant.
     *
     * @param check    the invariant's name
     * @param detail   a phrase its message must contain (what it saw)
     * @param seedsMax the variant must be caught on one of seeds 1..seedsMax
     */
    record Expectation(String check, String detail, int seedsMax) {
    }

    /**
     * The check meant to catch each variant. {@code skip-truncation} breaks no safety
     * property: a follower that keeps its diverging tail asks for the same divergence again
     * and again, and the leader never counts its log; a majority stuck so cannot commit, so
     * only the liveness bound can see it.
     */
    static Expectation expected(BrokenVariant variant) {
        return switch (variant) {
            case VOTE_NOT_PERSISTED -> new Expectation("election-state-durable", "but its disk holds", 3);
            case HW_OVER_OLD_EPOCH -> new Expectation("monotonic-high-watermark", "restarted and learned high watermark",
                    8);
            case SKIP_TRUNCATION -> new Expectation(InvariantChecker.TRUNCATION_HONORED, "the diverging entry at", 5);
            case ACK_BEFORE_SYNC -> new Expectation("high-watermark-on-majority", "is durable on only", 3);
            case PRE_VOTE_BUMPS_EPOCH -> new Expectation("epoch-campaigned", "but no node has campaigned in it", 3);
            case PRE_VOTE_LIVELOCK -> new Expectation(SilentLeaderStage.CHECK, "no new leader", 10);
            case REPLY_BEFORE_COMMIT -> new Expectation(AcknowledgedWritesCheck.NAME, "which no committed", 3);
            case FENCED_LEADER_KEPT -> new Expectation(PartitionLeaderCheck.NAME, "is fenced", 3);
            case STRAY_ID_UNCHECKED -> new Expectation(BrokerDirectoryCheck.NAME, "the image assigns", 8);
            case STALE_READ -> new Expectation(AdminDriver.READ_CURRENT, "its image is at", 3);
            case REPLAY_TWICE -> new Expectation(CommitTap.NAME, "refused a record of snapshot", 3);
            case SNAPSHOT_KEEPS_DELETED -> new Expectation(ImageReplayCheck.NAME, "differs from the committed log", 3);
            case REFUSAL_BEFORE_COMMIT -> new Expectation(AdminDriver.LINEARIZABLE, "write operations", 3);
            case PREFIXED_DENY_IGNORED -> new Expectation(AuthorizationCheck.NAME,
                    "is ALLOWED in the answer, but Kafka's StandardAuthorizer DENIES", 3);
            case WIPED_VOTER_VOTES -> new Expectation(VoterVoteCheck.NAME, "but is not a voter with its own directory id",
                    3);
            case NONE -> throw new IllegalArgumentException("the production rules are not broken");
        };
    }

    private static synchronized SimulationResult baseline(long seed, boolean system) {
        return BASELINES.computeIfAbsent(system ? -seed : seed, s -> Simulation.run(options(seed, system)));
    }

    /** Default runs; a variant of the system layer runs in system mode. */
    private static SimulationOptions options(long seed, boolean system) {
        return system ? SimulationOptions.systemDefaults(seed) : SimulationOptions.defaults(seed);
    }

    @ParameterizedTest
    @EnumSource(value = BrokenVariant.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void everyBrokenVariantIsCaughtByItsCheck(BrokenVariant variant) {
        Expectation expectation = expected(variant);
        RunOutcome caught = null;
        for (long seed = 1; seed <= expectation.seedsMax() && caught == null; seed++) {
            RunOutcome broken = BrokenRuleRuns.outcome(options(seed, variant.systemLayer()).withVariant(variant));
            if (!broken.passed() && baseline(seed, variant.systemLayer()).passed()) {
                caught = broken;
            }
        }
        assertNotNull(caught, variant.cliName() + " was not caught within " + expectation.seedsMax() + " seeds");
        RunOutcome first = caught;
        System.out.println("checker self-test: " + variant.cliName() + " caught on seed " + first.seed()
                + " of at most " + expectation.seedsMax() + " by " + first.invariant() + " at event "
                + first.failureEvent() + " (" + first.phase() + " phase): " + first.message());
        assertEquals(expectation.check(), first.invariant(), () -> variant.cliName()
                + " caught by another check than the one meant for it: " + first.description());
        assertTrue(first.message().contains(expectation.detail()), () -> variant.cliName()
                + " caught by " + expectation.check() + " for another reason: " + first.description());
    }
}
