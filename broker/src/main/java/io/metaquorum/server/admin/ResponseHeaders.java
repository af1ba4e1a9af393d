package io.metaquorum.server.admin;

import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.protocol.AdminResponseHeader;

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
}
