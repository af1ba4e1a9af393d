package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The checkers can fail: each deliberately broken variant must be caught within
 * {@link #SEEDS_MAX} seeds, by the check named for it. A catch counts only on a seed whose
 * unbroken run passes, so it is the variant, not something else, that the invariants caught.
 */
class SimCheckerSelfTest {
    static final int SEEDS_MAX = 40;
    private static final Map<Long, SimulationResult> BASELINES = new HashMap<>();

    private static synchronized SimulationResult baseline(long seed) {
        return BASELINES.computeIfAbsent(seed, s -> Simulation.run(SimulationOptions.defaults(s)));
    }

    /** The check that must catch each variant first. */
    private static String expectedCheck(BrokenVariant variant) {
        return switch (variant) {
            case VOTE_NOT_PERSISTED -> "election-state-durable";
            case HW_OVER_OLD_EPOCH -> "monotonic-high-watermark";
            case SKIP_TRUNCATION -> "liveness";
            case ACK_BEFORE_SYNC -> "high-watermark-on-majority";
            case PRE_VOTE_BUMPS_EPOCH -> "epoch-campaigned";
            case PRE_VOTE_LIVELOCK -> SilentLeaderStage.CHECK;
            case NONE -> throw new IllegalArgumentException("the production rules are not broken");
        };
    }

    @ParameterizedTest
    @EnumSource(value = BrokenVariant.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void everyBrokenVariantIsCaught(BrokenVariant variant) {
        SimulationResult caught = null;
        for (long seed = 1; seed <= SEEDS_MAX && caught == null; seed++) {
            SimulationResult broken = Simulation.run(SimulationOptions.defaults(seed).withVariant(variant));
            if (!broken.passed() && baseline(seed).passed()) {
                caught = broken;
            }
        }
        assertNotNull(caught, variant.cliName() + " was not caught within " + SEEDS_MAX + " seeds");
        System.out.println("checker self-test: " + variant.cliName() + " caught by seed " + caught.options().seed()
                + " at event " + caught.failureEvent() + ": " + caught.failure().getMessage());
        SimulationResult first = caught;
        assertEquals(expectedCheck(variant), first.failure().invariant(), () -> variant.cliName()
                + " caught by another check than expected: " + SimRuns.describe(first));
    }
}
