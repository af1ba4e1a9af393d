package io.metaquorum.sim.system.world;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.controller.ControllerGateway;
import io.metaquorum.node.controller.ControllerOperation;

/**
 * A controller node's gateway as the simulator sees it: the same gateway, except that an
 * operation queued while an admin attempt is being served tells the {@link AdminDriver}, when
 * the controller runs it, that the attempt was run and how far it moved the end of the
 * controller's decision image (the records it appended, if any), and on which committed image
 * an active controller decided it (what the authorization check judges the answer by: the
 * image production's write path authorizes against). An attempt that no controller ran took
 * no effect. It also keeps the committed image it last handed out, the one a read handler
 * answers from and authorizes against.
 */
final class AttemptTrackingGateway implements ControllerGateway {
    private final ControllerGateway gateway;
    private final AdminDriver admin;
    private MetadataImage handedOut;

    AttemptTrackingGateway(ControllerGateway gateway, AdminDriver admin) {
        this.gateway = gateway;
        this.admin = admin;
    }

    @Override
    public int nodeId() {
        return gateway.nodeId();
    }

    @Override
    public boolean isActive() {
        return gateway.isActive();
    }

    @Override
    public boolean submit(ControllerOperation operation) {
        AdminDriver.AttemptOps attempt = admin.currentAttempt();
        if (attempt == null) {
            return gateway.submit(operation);
        }
        return gateway.submit((controller, nowMs) -> {
            boolean active = controller.isActive();
            if (active) {
                attempt.decision().decided(gateway.nodeId(), controller.committedImage());
            }
            long committedEnd = controller.committedImage().committedEndOffset();
            long endBefore = controller.decisionImage().committedEndOffset();
            operation.run(controller, nowMs);
            admin.onAttemptRan(attempt, active, active && endBefore == committedEnd, endBefore,
                    controller.decisionImage().committedEndOffset());
        });
    }

    @Override
    public MetadataImage committedImage() {
        handedOut = gateway.committedImage();
        return handedOut;
    }

    /** The image {@link #committedImage} last returned, or null if none since {@link #forgetHandedOut}. */
    MetadataImage handedOut() {
        return handedOut;
    }

    void forgetHandedOut() {
        handedOut = null;
    }

    @Override
    public int knownControllerId() {
        return gateway.knownControllerId();
    }
}
