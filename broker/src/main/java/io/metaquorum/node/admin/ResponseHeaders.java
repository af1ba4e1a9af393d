package io.metaquorum.node.admin;

import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.ErrorCode;
import java.util.List;

/** The request-level part of every admin response. */
final class ResponseHeaders {
    /** The metadata offset of a write's answer: writes answer from the controller, not an image. */
    static final long NO_OFFSET = -1;

    private ResponseHeaders() {
    }

    static AdminResponseHeader header(ApiError error, int controllerId, long metadataOffset) {
        return AdminResponseHeader.newBuilder().setErrorCode(error.code()).setErrorMessage(error.message())
                .setControllerId(controllerId).setMetadataOffset(metadataOffset).build();
    }

    static AdminResponseHeader ok(int controllerId, long metadataOffset) {
        return header(ApiError.NONE, controllerId, metadataOffset);
    }

    /**
     * The header of a write the controller answered entry by entry: NOT_CONTROLLER when every
     * entry failed with it (the controller lost its leadership while the write waited), so a
     * client that looks only at the header refreshes the controller too; NONE otherwise.
     */
    static AdminResponseHeader ofWrite(List<ApiError> entries, int controllerId) {
        boolean lost = !entries.isEmpty() && entries.stream().allMatch(e -> e.code() == ErrorCode.NOT_CONTROLLER);
        return lost ? header(entries.get(0), controllerId, NO_OFFSET) : ok(controllerId, NO_OFFSET);
    }
}
