package io.metaquorum.sim.system.workload;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.CallOrigin;
import java.util.function.Consumer;

/**
 * Hands one workload call to a node's production admin handlers as the admin API's request
 * ({@link AdminWire}) and its response back as per-item results ({@link AdminReplies}).
 */
public final class AdminCalls {
    private AdminCalls() {
    }

    /** Writes wait up to {@code writeTimeoutMs} for their commit (0: answered once raft accepted them). */
    public static void send(AdminRequests admin, AdminCall call, int writeTimeoutMs, Consumer<AdminAnswer> reply) {
        if (call instanceof AdminCall.CreateTopics create) {
            admin.createTopics(AdminWire.createTopics(create, writeTimeoutMs), CallOrigin.CLIENT,
                    response -> reply.accept(AdminReplies.created(response, create.request().validateOnly())));
        } else if (call instanceof AdminCall.DeleteTopics delete) {
            admin.deleteTopics(AdminWire.deleteTopics(delete, writeTimeoutMs), CallOrigin.CLIENT,
                    response -> reply.accept(AdminReplies.deleted(response)));
        } else if (call instanceof AdminCall.CreatePartitions grow) {
            admin.createPartitions(AdminWire.createPartitions(grow, writeTimeoutMs), CallOrigin.CLIENT,
                    response -> reply.accept(AdminReplies.grown(response)));
        } else if (call instanceof AdminCall.AlterConfigs alter) {
            admin.incrementalAlterConfigs(AdminWire.alterConfigs(alter), CallOrigin.CLIENT,
                    response -> reply.accept(AdminReplies.altered(response)));
        } else if (call instanceof AdminCall.DescribeTopic describe) {
            reply.accept(AdminReplies.described(admin.describeTopics(AdminWire.describeTopic(describe),
                    CallOrigin.CLIENT), describe.name()));
        } else {
            reply.accept(AdminReplies.listed(admin.listTopics(AdminWire.listTopics(), CallOrigin.CLIENT)));
        }
    }
}
