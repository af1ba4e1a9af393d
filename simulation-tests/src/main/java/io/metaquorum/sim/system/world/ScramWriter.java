package io.metaquorum.sim.system.world;

import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.system.invariant.ScramWriteCheck;
import io.metaquorum.sim.system.workload.ScramCall;
import io.metaquorum.sim.system.workload.ScramWorkload;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The writes of the workload's SCRAM credentials ({@link ScramWorkload}) for a
 * {@link ControllerWriter}: one AlterUserScramCredentials at a time to a controller node. A
 * write without a definite answer is sent again (an upsertion again stores the same
 * credential; a deletion again finds nothing, RESOURCE_NOT_FOUND, which the checks allow). Its
 * answers are judged where they are given ({@link ScramWriteCheck}, and the authorization
 * check).
 */
final class ScramWriter implements ControllerWriter.Kind<ScramCall, AlterUserScramCredentialsResponse> {
    @Override
    public Supplier<ScramCall> workload(Random random) {
        return new ScramWorkload(random)::next;
    }

    @Override
    public void handle(ControllerRole controller, ScramCall call, Consumer<AlterUserScramCredentialsResponse> reply) {
        controller.handleScram(call, reply);
    }

    @Override
    public AdminResponseHeader header(AlterUserScramCredentialsResponse response) {
        return response.getHeader();
    }

    /** The header's code, else the first user's. */
    @Override
    public ErrorCode code(AlterUserScramCredentialsResponse response) {
        if (response.getHeader().getErrorCode() != ErrorCode.NONE) {
            return response.getHeader().getErrorCode();
        }
        return response.getResultsCount() > 0 ? response.getResults(0).getErrorCode() : ErrorCode.NONE;
    }
}
