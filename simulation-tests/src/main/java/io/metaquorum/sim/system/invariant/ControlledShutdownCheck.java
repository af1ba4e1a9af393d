package io.metaquorum.sim.system.invariant;

import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.sim.check.CheckFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * A broker the controller let go (a heartbeat with {@code wantShutDown} answered
 * {@code shouldShutDown}, which moved it from PENDING_CONTROLLED_SHUTDOWN to SHUT_DOWN) is
 * fenced in the committed image and leads no partition there: the controller answers only once
 * the fencing and the leadership moves it wrote have committed, so a process that exits then
 * leaves no partition led by a dead broker. Catches a controller that answers before its records
 * commit, or lets the broker go without fencing it.
 *
 * <p>Where it holds: at the moment the broker reads that answer, on the committed image of the
 * checkers' replay (which is at least as far as the controller's commit when it answered). A
 * controlled shutdown that ended by the broker's timeout (no answer) is not judged.
 */
public final class ControlledShutdownCheck {
    public static final String NAME = "controlled-shutdown-moved-leaders";

    private ControlledShutdownCheck() {
    }

    /** {@code committed}: the committed image when broker {@code brokerId} read its shouldShutDown answer. */
    public static void check(int brokerId, MetadataImage committed) {
        String where = "broker " + brokerId + " let go by the controller, committed image at "
                + committed.lastCommittedOffset();
        BrokerRegistration registration = committed.cluster().broker(brokerId);
        if (registration == null) {
            throw new CheckFailure(NAME, where + ": the broker is not registered");
        }
        if (!registration.fenced()) {
            throw new CheckFailure(NAME, where + ": the broker (epoch " + registration.epoch() + ") is not fenced");
        }
        List<String> led = new ArrayList<>();
        for (TopicImage topic : committed.topics().sortedByName()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                if (topic.partition(p).leader() == brokerId) {
                    led.add(topic.name() + "-" + p);
                }
            }
        }
        if (!led.isEmpty()) {
            throw new CheckFailure(NAME, where + ": the broker still leads " + led);
        }
    }
}
