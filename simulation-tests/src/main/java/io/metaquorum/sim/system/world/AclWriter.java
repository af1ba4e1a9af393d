package io.metaquorum.sim.system.world;

import com.google.protobuf.Message;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.system.invariant.AuthorizationCheck;
import io.metaquorum.sim.system.workload.AclCall;
import io.metaquorum.sim.system.workload.AclWorkload;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The writes of the workload's ACLs ({@link AclWorkload}) for a {@link ControllerWriter}: one
 * CreateAcls or DeleteAcls at a time to a controller node. An ACL write is idempotent (an ACL
 * that exists is created again as a no-op; a filter deletes what matches), so a write without
 * a definite answer is simply sent again. Its answers are judged where they are given, like
 * every admin answer ({@link AuthorizationCheck}); what the writes change is judged through
 * the decisions that follow.
 */
final class AclWriter implements ControllerWriter.Kind<AclCall, Message> {
    @Override
    public Supplier<AclCall> workload(Random random) {
        return new AclWorkload(random)::next;
    }

    @Override
    public void handle(ControllerRole controller, AclCall call, Consumer<Message> reply) {
        controller.handleAcl(call, reply);
    }

    @Override
    public AdminResponseHeader header(Message response) {
        return response instanceof CreateAclsResponse created ? created.getHeader()
                : ((DeleteAclsResponse) response).getHeader();
    }

    @Override
    public ErrorCode code(Message response) {
        AdminResponseHeader header = header(response);
        if (header.getErrorCode() != ErrorCode.NONE) {
            return header.getErrorCode();
        }
        if (response instanceof CreateAclsResponse created && created.getResultsCount() > 0) {
            return created.getResults(0).getErrorCode();
        }
        return response instanceof DeleteAclsResponse deleted && deleted.getFilterResultsCount() > 0
                ? deleted.getFilterResults(0).getErrorCode() : ErrorCode.NONE;
    }
}
