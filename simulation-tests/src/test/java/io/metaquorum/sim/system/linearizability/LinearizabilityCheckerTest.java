package io.metaquorum.sim.system.linearizability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.invariant.InvariantViolation;
import org.junit.jupiter.api.Test;

/** The search itself, on a single register: the classic good and bad histories. */
class LinearizabilityCheckerTest {
    /** A register holding an int, initially 0: write(v) answers 0, read answers the value. */
    record Register(boolean write, int value) {
    }

    static final class RegisterModel implements SequentialModel<Integer, Register, Integer> {
        @Override
        public Integer initialState() {
            return 0;
        }

        @Override
        public Integer step(Integer state, Register input, Integer output) {
            if (input.write()) {
                return input.value();
            }
            return output == null || output.equals(state) ? state : null;
        }
    }

    private static CheckResult check(History<Register, Integer> history) {
        return new LinearizabilityChecker<>(new RegisterModel(), Partitioner.<Register, Integer>whole(), 1_000_000)
                .check(history.operations());
    }

    @Test
    void aReadConcurrentWithAWriteMaySeeEitherValue() {
        History<Register, Integer> history = new History<>();
        int write = history.invoke(1, new Register(true, 1), 0);
        int readOld = history.invoke(2, new Register(false, 0), 1);
        history.complete(readOld, 0, 2);
        int readNew = history.invoke(3, new Register(false, 0), 3);
        history.complete(readNew, 1, 4);
        history.complete(write, 0, 5);
        assertTrue(check(history).linearizable(), check(history).toString());
    }

    @Test
    void aReadAfterAnAcknowledgedWriteMustSeeIt() {
        History<Register, Integer> history = new History<>();
        int write = history.invoke(1, new Register(true, 1), 0);
        history.complete(write, 0, 1);
        int read = history.invoke(2, new Register(false, 0), 2);
        history.complete(read, 0, 3);
        CheckResult result = check(history);
        assertEquals(CheckResult.Verdict.NOT_LINEARIZABLE, result.verdict());
        assertTrue(result.toString().contains("#1 client 2"), result.toString());
    }

    @Test
    void twoReadsMayNotSeeTheNewValueThenTheOld() {
        History<Register, Integer> history = new History<>();
        int write = history.invoke(1, new Register(true, 1), 0);
        int first = history.invoke(2, new Register(false, 0), 1);
        history.complete(first, 1, 2);
        int second = history.invoke(3, new Register(false, 0), 3);
        history.complete(second, 0, 4);
        history.complete(write, 0, 5);
        assertFalse(check(history).linearizable());
    }

    @Test
    void aWriteWithAnUnknownOutcomeMayHaveTakenEffectOrNot() {
        History<Register, Integer> tookEffect = new History<>();
        int write = tookEffect.invoke(1, new Register(true, 7), 0);
        tookEffect.ambiguous(write);
        int read = tookEffect.invoke(2, new Register(false, 0), 10);
        tookEffect.complete(read, 7, 11);
        assertTrue(check(tookEffect).linearizable());

        History<Register, Integer> neverDid = new History<>();
        int lost = neverDid.invoke(1, new Register(true, 7), 0);
        neverDid.ambiguous(lost);
        int readZero = neverDid.invoke(2, new Register(false, 0), 10);
        neverDid.complete(readZero, 0, 11);
        assertTrue(check(neverDid).linearizable());

        // Once seen, it stays: the write happened once, not "in and out".
        int readAgain = neverDid.invoke(2, new Register(false, 0), 12);
        neverDid.complete(readAgain, 7, 13);
        int readZeroAgain = neverDid.invoke(2, new Register(false, 0), 14);
        neverDid.complete(readZeroAgain, 0, 15);
        assertFalse(check(neverDid).linearizable());
    }

    @Test
    void anOperationLeftOpenAtTheEndCountsAsUnknown() {
        History<Register, Integer> history = new History<>();
        history.invoke(1, new Register(true, 3), 0);
        int read = history.invoke(2, new Register(false, 0), 1);
        history.complete(read, 3, 2);
        assertTrue(check(history).linearizable());
    }

    @Test
    void theStepBudgetGivesNoVerdictRatherThanAPass() {
        History<Register, Integer> history = new History<>();
        for (int i = 0; i < 12; i++) {
            history.invoke(i, new Register(true, i), i);
        }
        for (int i = 0; i < 12; i++) {
            history.complete(i, 0, 20 + i);
        }
        int read = history.invoke(99, new Register(false, 0), 40);
        history.complete(read, 55, 41);
        CheckResult result = new LinearizabilityChecker<>(new RegisterModel(), Partitioner.<Register, Integer>whole(),
                50).check(history.operations());
        assertEquals(CheckResult.Verdict.UNDECIDED, result.verdict());
        assertEquals(CheckResult.Verdict.NOT_LINEARIZABLE, check(history).verdict());
    }

    @Test
    void anAnswerIsRecordedOnce() {
        History<Register, Integer> history = new History<>();
        int write = history.invoke(1, new Register(true, 1), 0);
        history.complete(write, 0, 1);
        assertThrows(InvariantViolation.class, () -> history.complete(write, 0, 2));
        assertThrows(InvariantViolation.class, () -> history.ambiguous(write));
    }
}
