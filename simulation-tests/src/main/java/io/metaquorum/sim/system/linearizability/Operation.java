package io.metaquorum.sim.system.linearizability;

/**
 * One operation of a history: invoked by a client, answered or not.
 *
 * <p>Real-time order is the order the recorder saw the events in ({@code invokeSeq},
 * {@code returnSeq}; simulated times are kept for reports only, since many events share one
 * millisecond). An operation with an unknown outcome has {@code output == null} and
 * {@code returnSeq == Long.MAX_VALUE}: it may take effect at any point after its invocation,
 * or never.
 *
 * <p>Invariant: {@code invokeSeq < returnSeq}; {@code output == null} exactly when
 * {@code returnSeq == Long.MAX_VALUE}.
 *
 * @param id        index in the history, 0-based and dense
 * @param clientId  who invoked it (reports only)
 * @param invokeSeq position of the invocation in the recorded event order
 * @param returnSeq position of the answer, or {@code Long.MAX_VALUE} when unknown
 * @param invokeMs  simulated time of the invocation
 * @param returnMs  simulated time of the answer, or -1 when unknown
 */
public record Operation<I, O>(int id, int clientId, I input, O output, long invokeSeq, long returnSeq, long invokeMs,
                              long returnMs) {
    public boolean outcomeKnown() {
        return returnSeq != Long.MAX_VALUE;
    }

    /** The same operation with another id, input and output (a projection onto one partition). */
    public <J, P> Operation<J, P> project(int newId, J newInput, P newOutput) {
        return new Operation<>(newId, clientId, newInput, newOutput, invokeSeq, returnSeq, invokeMs, returnMs);
    }
}
