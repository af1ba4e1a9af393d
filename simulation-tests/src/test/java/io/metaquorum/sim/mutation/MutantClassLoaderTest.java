package io.metaquorum.sim.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.raft.core.RaftCore;
import io.metaquorum.raft.core.handler.FetchHandler;
import io.metaquorum.raft.core.handler.VoteHandler;
import io.metaquorum.sim.Simulation;
import io.metaquorum.node.controller.ControllerNode;
import org.junit.jupiter.api.Test;

/** What a mutant world replaces, what it defines again, and what it shares with its caller. */
class MutantClassLoaderTest {
    private ClassLoader parent() {
        return getClass().getClassLoader();
    }

    @Test
    void onlyTheClassesOfTheMutatedSourcesTakeTheMutationsBytes() throws ClassNotFoundException {
        MutantClassLoader world = new MutantClassLoader("hw-over-old-epoch", parent());
        Class<?> mutated = world.loadClass(FetchHandler.class.getName());
        assertTrue(MutantClassLoader.isMutated(mutated));
        assertFalse(MutantClassLoader.isMutated(FetchHandler.class));
        assertEquals("hw-over-old-epoch", MutantClassLoader.mutationOf(mutated));
        Class<?> other = world.loadClass(VoteHandler.class.getName());
        assertFalse(MutantClassLoader.isMutated(other), "only the patched source's classes are the mutation's");
        assertTrue(MutantClassLoader.isDefinedAgain(other));
    }

    @Test
    void aMutationThatIsNotBuiltIsRefused() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new MutantClassLoader("no-such-mutation", parent()));
        assertTrue(refused.getMessage().contains("src/mutations/no-such-mutation.patch"), refused.getMessage());
    }

    @Test
    void raftAndSimulationClassesAreDefinedAgainTheRestIsShared() throws ClassNotFoundException {
        MutantClassLoader world = new MutantClassLoader("hw-over-old-epoch", parent());
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
    void aNodeClassCanBeMutatedWithItsNestedClassesAndTheLayersAroundItAreDefinedAgain()
            throws ReflectiveOperationException {
        MutantClassLoader world = new MutantClassLoader("stale-read", parent());
        String gatewayName = ControllerNode.class.getName() + "$Gateway";
        Class<?> gateway = world.loadClass(gatewayName);
        assertTrue(MutantClassLoader.isMutated(world.loadClass(ControllerNode.class.getName())));
        assertTrue(MutantClassLoader.isMutated(gateway));
        assertFalse(MutantClassLoader.isMutated(world.loadClass(QuorumController.class.getName())));
        assertNotSame(QuorumController.class, world.loadClass(QuorumController.class.getName()));
        assertSame(VoteRequest.class, world.loadClass(VoteRequest.class.getName()));
        // The patch's added field is there: the class really is the patched source, compiled.
        assertNotSame(null, gateway.getDeclaredField("previous"));
        assertThrows(NoSuchFieldException.class, () -> Class.forName(gatewayName).getDeclaredField("previous"));
    }

    @Test
    void theControlWorldDefinesEveryProjectClassAgainAndSwapsNone() throws ClassNotFoundException {
        MutantClassLoader control = new MutantClassLoader(null, parent());
        Class<?> handler = control.loadClass(FetchHandler.class.getName());
        assertNotSame(FetchHandler.class, handler);
        assertTrue(MutantClassLoader.isDefinedAgain(handler));
        assertFalse(MutantClassLoader.isMutated(handler));
        assertNull(MutantClassLoader.mutationOf(handler));
        assertFalse(MutantClassLoader.isMutated(control.loadClass(QuorumController.class.getName())));
    }
}
