package io.metaquorum.sim.system.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.workload.AdminCall;
import io.metaquorum.sim.system.workload.ClusterView;
import io.metaquorum.sim.system.workload.ReferenceModel;
import java.util.List;

/**
 * Every definite answer of a finished admin call is one the {@link ReferenceModel} allows:
 * judged as each call ends, against the broker view of that call ({@link ClusterView}: a
 * valid create may be refused for too few unfenced brokers only if fewer were surely unfenced
 * when it was decided). The first mismatch fails the run.
 */
public final class PredictedAnswerCheck {
    public static final String NAME = "admin-answer-predicted";

    private final ReferenceModel model;

    public PredictedAnswerCheck(ReferenceModel model) {
        this.model = model;
    }

    /** Judges the final answers of {@code call}; fails on the first the model does not allow. */
    public void onFinish(AdminCall call, List<ReferenceModel.FinalItem> items, ClusterView cluster) {
        model.onFinish(call, items, cluster);
        if (!model.mismatches().isEmpty()) {
            throw new CheckFailure(NAME, model.mismatches().get(0).toString());
        }
    }
}
