package io.metaquorum.sim.system.workload;

import io.metaquorum.protocol.ErrorCode;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The codes the reference model allows for one item of one call, and why.
 *
 * <p>Invariant: {@code allowed} is not empty.
 */
public record Expectation(String item, Set<ErrorCode> allowed, String why) {
    public Expectation {
        allowed = Collections.unmodifiableSet(EnumSet.copyOf(allowed));
    }

    static Expectation of(String item, String why, ErrorCode first, ErrorCode... rest) {
        return new Expectation(item, EnumSet.of(first, rest), why);
    }

    /** This expectation, also allowing {@code codes} (an outcome the model cannot be sure of). */
    Expectation or(String reason, ErrorCode... codes) {
        EnumSet<ErrorCode> more = EnumSet.copyOf(allowed);
        more.addAll(java.util.Arrays.asList(codes));
        return new Expectation(item, more, why + "; or " + reason);
    }

    public boolean admits(ErrorCode code) {
        return allowed.contains(code);
    }

    /** True when exactly one code is allowed: the case is deterministic. */
    public boolean deterministic() {
        return allowed.size() == 1;
    }
}
