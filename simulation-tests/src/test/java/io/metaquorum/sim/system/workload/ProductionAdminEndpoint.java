package io.metaquorum.sim.system.workload;

import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.AdminMethod;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.Forwarding;
import io.metaquorum.node.admin.NodeRequests;
import io.metaquorum.node.controller.ControllerGateway;
import io.metaquorum.node.controller.ControllerOperation;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The production admin handlers ({@link AdminRequests}) in front of one controller that runs
 * every queued operation at once, for tests of the workload and its judges without raft: the
 * calls go in as the admin API's requests and come back as per-item answers, as in a system run.
 */
final class ProductionAdminEndpoint {
    private static final Forwarding NO_FORWARDING = new Forwarding() {
        @Override
        public boolean canForwardTo(int controllerId) {
            return false;
        }

        @Override
        public <Q, R> void forward(int controllerId, AdminMethod<Q, R> method, Q request, long waitMs,
                                   CallOrigin origin, Consumer<R> onAnswer, Consumer<Throwable> onFailure) {
            throw new AssertionError("a one-node cluster has nowhere to forward to");
        }
    };

    private final AdminRequests admin;
    private final int writeTimeoutMs;

    /**
     * @param image the committed image reads are served from
     * @param now   the controller's clock
     */
    ProductionAdminEndpoint(QuorumController controller, Supplier<MetadataImage> image, IntSupplier controllerId,
                            LongSupplier now, int writeTimeoutMs) {
        this.admin = NodeRequests.create(new ImmediateGateway(controller, image, controllerId, now), NO_FORWARDING,
                "test-cluster", NodeAccess.DISABLED).admin();
        this.writeTimeoutMs = writeTimeoutMs;
    }

    void handle(AdminCall call, Consumer<AdminAnswer> reply) {
        AdminCalls.send(admin, call, writeTimeoutMs, reply);
    }

    /** What a describe of {@code name} answers when served from {@code image}. */
    static AdminAnswer describeAt(MetadataImage image, String name) {
        ProductionAdminEndpoint stale = new ProductionAdminEndpoint(null, () -> image, () -> -1, () -> 0, 0);
        AdminAnswer[] answer = new AdminAnswer[1];
        stale.handle(new AdminCall.DescribeTopic(name), a -> answer[0] = a);
        return answer[0];
    }

    private record ImmediateGateway(QuorumController controller, Supplier<MetadataImage> image,
                                    IntSupplier controllerId, LongSupplier now) implements ControllerGateway {
        @Override
        public int nodeId() {
            return 1;
        }

        @Override
        public boolean isActive() {
            return controller.isActive();
        }

        @Override
        public boolean submit(ControllerOperation operation) {
            operation.run(controller, now.getAsLong());
            return true;
        }

        @Override
        public MetadataImage committedImage() {
            return image.get();
        }

        @Override
        public int knownControllerId() {
            return controllerId.getAsInt();
        }
    }
}
