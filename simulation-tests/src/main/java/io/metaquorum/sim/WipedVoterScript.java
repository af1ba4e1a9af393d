package io.metaquorum.sim;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.invariant.VoterVoteCheck;
import io.metaquorum.sim.mutation.MutantClassLoader;
import io.metaquorum.sim.mutation.MutantEntry;
import io.metaquorum.sim.mutation.RunOutcome;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Set;

/**
 * KIP-853's disk amnesia, scripted (the checker self-test of {@code wiped-voter-votes}): three
 * voters; node 3 is cut off while the leader commits entries on the other two, A and B; A
 * stops, B's disk is wiped and B comes back on a new one, and node 3 rejoins B. With directory
 * ids, B is an observer: node 3 can win no election, nothing commits until A is back, and A's
 * log wins. If B acted as the voter it replaced, it would vote for node 3, whose log lacks the
 * committed entries, and node 3 would commit others at their offsets.
 *
 * <p>A {@link MutantEntry}, so the script runs in a mutant world as seeded runs do. Arguments:
 * {@code --seed S}, and {@code --without-direct-check} to leave out
 * {@value VoterVoteCheck#NAME}, which sees the wrong vote itself, to show what
 * {@code committed-entry-stable} sees of its consequence.
 */
public final class WipedVoterScript implements MutantEntry {
    private static final long BOUND_MS = 30_000;
    private static final String WITHOUT_DIRECT_CHECK = "--without-direct-check";

    /** Made inside a mutant world by {@link io.metaquorum.sim.mutation.MutantWorlds}, or directly. */
    public WipedVoterScript() {
    }

    @Override
    public int simulate(String[] args, PrintStream out, PrintStream err) {
        RunOutcome outcome = run(args);
        out.println(outcome.description());
        return outcome.passed() ? 0 : 1;
    }

    @Override
    public RunOutcome run(String[] args) {
        long seed = Long.parseLong(args[Arrays.asList(args).indexOf("--seed") + 1]);
        boolean withoutDirectCheck = Arrays.asList(args).contains(WITHOUT_DIRECT_CHECK);
        String world = MutantClassLoader.isDefinedAgain(WipedVoterScript.class)
                ? WipedVoterScript.class.getClassLoader().getName() : "caller";
        String line = "wiped-voter script seed " + seed;
        try {
            play(seed, withoutDirectCheck);
            return new RunOutcome(seed, true, null, null, 0, "script", line, line + " passed", world);
        } catch (CheckFailure failure) {
            return new RunOutcome(seed, false, failure.invariant(), failure.getMessage(), 0, "script", line,
                    line + " FAILED: " + failure.getMessage(), world);
        }
    }

    private static void play(long seed, boolean withoutDirectCheck) {
        Scenario scenario = Scenario.start(seed, 3, 0);
        if (withoutDirectCheck) {
            scenario.ignoreCheck(VoterVoteCheck.NAME);
        }
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(10, BOUND_MS);
        scenario.partition(Set.of(3), Set.of(1, 2));
        SimNode a = scenario.awaitLeader(BOUND_MS, Set.of(3));
        // Entries node 3 never gets: committed on A and B alone.
        scenario.awaitCommitted(40, BOUND_MS);
        int b = a.nodeId() == 1 ? 2 : 1;
        scenario.crash(a.nodeId());
        scenario.wipe(b);
        scenario.links().healAll();
        scenario.runUntil(() -> scenario.node(b).isRunning(), BOUND_MS, "node " + b + " back on its new disk");
        // Time for node 3 to campaign, more than once, with B the only voter it can reach.
        scenario.runFor(BOUND_MS);
        scenario.links().healAll();
        scenario.restart(a.nodeId());
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(10, BOUND_MS);
        scenario.finishChecks();
    }
}
