package io.metaquorum.sim.system.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminModel;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.linearizability.Operation;
import java.util.List;

/**
 * Every definite answer carries a code the sequential model knows for its operation
 * ({@link AdminModel#knows}). A code it does not know would otherwise have to be read as a
 * no-op or as a contradiction; neither is a judgement, so it fails the run by name, as each
 * answer arrives.
 */
public final class AnswerCodeCheck {
    public static final String NAME = "admin-answer-code-known";

    private AnswerCodeCheck() {
    }

    public static void check(List<Operation<AdminInput, AdminOutput>> answered) {
        for (Operation<AdminInput, AdminOutput> op : answered) {
            if (op.outcomeKnown() && !AdminModel.knows(op.input(), op.output())) {
                throw new CheckFailure(NAME, "operation " + op.id() + " of client " + op.clientId() + ": "
                        + op.input() + " was answered " + op.output() + ", a code its model does not know");
            }
        }
    }
}
