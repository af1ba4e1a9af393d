package io.metaquorum.sim.system.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminModel;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.admin.AdminPartitioner;
import io.metaquorum.sim.system.linearizability.CheckResult;
import io.metaquorum.sim.system.linearizability.LinearizabilityChecker;
import io.metaquorum.sim.system.linearizability.Operation;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * At the end of a run: the history of admin writes is linearizable against {@link AdminModel}.
 * Reads are left out (production serves them from any node's image, which may lag), and so
 * is an attempt whose outcome is unknown to the client but certainly took no effect (the
 * simulator saw that no controller handled it): removing what did not happen keeps the
 * search small and changes no verdict.
 */
public final class WriteHistoryCheck {
    public static final String NAME = "admin-history-linearizable";

    private WriteHistoryCheck() {
    }

    /**
     * @param noEffect operations (by id) whose attempt certainly took no effect
     * @param stepsMax search steps one sub-history may take; past it the verdict is a failure
     */
    public static void check(List<Operation<AdminInput, AdminOutput>> history, BitSet noEffect, long stepsMax) {
        List<Operation<AdminInput, AdminOutput>> writes = new ArrayList<>();
        for (Operation<AdminInput, AdminOutput> op : history) {
            boolean read = op.input() instanceof AdminInput.DescribeTopic || op.input() instanceof AdminInput.ListTopics;
            if (!read && !(noEffect.get(op.id()) && !op.outcomeKnown())) {
                writes.add(op.project(writes.size(), op.input(), op.output()));
            }
        }
        CheckResult result = new LinearizabilityChecker<>(new AdminModel(), new AdminPartitioner(), stepsMax)
                .check(writes);
        if (!result.linearizable()) {
            throw new CheckFailure(NAME, writes.size() + " write operations: " + result);
        }
    }
}
