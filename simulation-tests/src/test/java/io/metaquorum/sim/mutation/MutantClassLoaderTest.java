package io.metaquorum.sim.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.raft.core.RaftCore;
import io.metaquorum.raft.core.quorum.EpochAdoptionRule;
import io.metaquorum.raft.core.quorum.HighWatermarkRule;
import io.metaquorum.sim.Simulation;
import io.metaquorum.node.controller.ControllerNode;
import org.junit.jupiter.api.Test;

/** What a mutant world replaces, what it defines again, and what it shares with its caller. */
class MutantClassLoaderTest {
    private static final long[] OLD_EPOCH_ON_A_MAJORITY = {3, 3, 0};

    private static long nextHighWatermark(Class<?> rule) throws ReflectiveOperationException {
        return (long) rule.getMethod("next", long[].class, long.class, long.class)
                .invoke(null, OLD_EPOCH_ON_A_MAJORITY, 3L, -1L);
    }

    @Test
    void theReplacedClassIsTheBrokenTwinAndOnlyThere() throws ReflectiveOperationException {
        MutantClassLoader world = new MutantClassLoader(HighWatermarkRule.class, getClass().getClassLoader());
        Class<?> twin = world.loadClass(HighWatermarkRule.class.getName());
        assertTrue(MutantClassLoader.isTwin(twin));
        assertFalse(MutantClassLoader.isTwin(HighWatermarkRule.class));
        assertEquals(-1, nextHighWatermark(HighWatermarkRule.class), "production waits for the current epoch");
        assertEquals(3, nextHighWatermark(twin), "the twin commits the older epoch's entries");
        Class<?> otherRule = world.loadClass(EpochAdoptionRule.class.getName());
        assertFalse(MutantClassLoader.isTwin(otherRule), "only the named class is replaced");
    }

    @Test
    void raftAndSimulationClassesAreDefinedAgainTheRestIsShared() throws ClassNotFoundException {
        MutantClassLoader world = new MutantClassLoader(HighWatermarkRule.class, getClass().getClassLoader());
        assertNotSame(RaftCore.class, world.loadClass(RaftCore.class.getName()));
        assertNotSame(Simulation.class, world.loadClass(Simulation.class.getName()));
        assertSame(world, world.loadClass(RaftCore.class.getName()).getClassLoader());
        assertSame(RunOutcome.class, world.loadClass(RunOutcome.class.getName()), "this package crosses worlds");
        assertSame(MutantEntry.class, world.loadClass(MutantEntry.class.getName()));
        assertSame(VoteRequest.class, world.loadClass(VoteRequest.class.getName()));
        assertSame(Invariants.class, world.loadClass(Invariants.class.getName()));
        assertSame(String.class, world.loadClass(String.class.getName()));
    }

    @Test
    void aControllerClassCanBeReplacedAndTheLayersAboveItAreDefinedAgain() throws ClassNotFoundException {
        String fenceChanges = "io.metaquorum.metadata.controller.PartitionChanges";
        Class<?> production = Class.forName(fenceChanges);
        MutantClassLoader world = new MutantClassLoader(production, getClass().getClassLoader());
        assertTrue(MutantClassLoader.isTwin(world.loadClass(fenceChanges)));
        assertFalse(MutantClassLoader.isTwin(production));
        assertNotSame(QuorumController.class, world.loadClass(QuorumController.class.getName()),
                "the controller links to the twin");
        assertNotSame(ControllerNode.class, world.loadClass(ControllerNode.class.getName()));
        assertSame(VoteRequest.class, world.loadClass(VoteRequest.class.getName()));
        assertSame(Invariants.class, world.loadClass(Invariants.class.getName()));
    }
}
