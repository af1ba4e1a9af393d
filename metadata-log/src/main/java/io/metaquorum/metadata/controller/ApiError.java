package io.metaquorum.metadata.controller;

import io.metaquorum.protocol.ErrorCode;

/**
 * An expected failure as a value (docs/engineering-rules.md rule 4): the code clients act on through
 * its handling class, and a message for people. {@link #NONE} is success.
 */
public record ApiError(ErrorCode code, String message) {
    public static final ApiError NONE = new ApiError(ErrorCode.NONE, "");

    public static ApiError of(ErrorCode code, String message) {
        return new ApiError(code, message);
    }

    public boolean isSuccess() {
        return code == ErrorCode.NONE;
    }

    @Override
    public String toString() {
        return isSuccess() ? "NONE" : code.name() + ": " + message;
    }
}
