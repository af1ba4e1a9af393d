package io.metaquorum.sim.system.workload;

import com.google.protobuf.Message;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
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
        send(admin, call, CallOrigin.CLIENT, writeTimeoutMs, reply, response -> { });
    }

    /**
     * As above, from {@code origin}; {@code responses} sees each API response as the node
     * built it, before it is reduced to per-item results.
     */
    public static void send(AdminRequests admin, AdminCall call, CallOrigin origin, int writeTimeoutMs,
                            Consumer<AdminAnswer> reply, Consumer<Message> responses) {
        if (call instanceof AdminCall.CreateTopics create) {
            admin.createTopics(AdminWire.createTopics(create, writeTimeoutMs), origin, response -> {
                responses.accept(response);
                reply.accept(AdminReplies.created(response, create.request().validateOnly()));
            });
        } else if (call instanceof AdminCall.DeleteTopics delete) {
            admin.deleteTopics(AdminWire.deleteTopics(delete, writeTimeoutMs), origin, response -> {
                responses.accept(response);
                reply.accept(AdminReplies.deleted(response));
            });
        } else if (call instanceof AdminCall.CreatePartitions grow) {
            admin.createPartitions(AdminWire.createPartitions(grow, writeTimeoutMs), origin, response -> {
                responses.accept(response);
                reply.accept(AdminReplies.grown(response));
            });
        } else if (call instanceof AdminCall.AlterConfigs alter) {
            admin.incrementalAlterConfigs(AdminWire.alterConfigs(alter), origin, response -> {
                responses.accept(response);
                reply.accept(AdminReplies.altered(response));
            });
        } else if (call instanceof AdminCall.DescribeTopic describe) {
            var response = admin.describeTopics(AdminWire.describeTopic(describe), origin);
            responses.accept(response);
            reply.accept(AdminReplies.described(response, describe.name()));
        } else {
            var response = admin.listTopics(AdminWire.listTopics(), origin);
            responses.accept(response);
            reply.accept(AdminReplies.listed(response));
        }
    }

    /** An ACL write from its caller; {@code reply} gets the API's response. */
    public static void send(AdminRequests admin, AclCall call, CallOrigin origin, Consumer<Message> reply) {
        if (call instanceof AclCall.Create create) {
            admin.createAcls(create.request(), origin, reply::accept);
        } else {
            admin.deleteAcls(((AclCall.Delete) call).request(), origin, reply::accept);
        }
    }

    /** A SCRAM credential write from its caller; {@code reply} gets the API's response. */
    public static void send(AdminRequests admin, ScramCall call, CallOrigin origin,
                            Consumer<AlterUserScramCredentialsResponse> reply) {
        admin.alterUserScramCredentials(call.request(), origin, reply::accept);
    }
}
