package io.metaquorum.retry;

import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ErrorsProto;

/**
 * The handling class of an error code, read from the catalog's {@code handling} option in
 * {@code errors.proto} (docs/architecture.md §8). The client decides by this class alone, never by the
 * code's name. A code this build does not know (a newer node) is treated as not retriable.
 */
public final class ErrorHandling {
    private ErrorHandling() {
    }

    public static ErrorClass of(ErrorCode code) {
        if (code == ErrorCode.UNRECOGNIZED) {
            return ErrorClass.INVALID_REQUEST_CLASS;
        }
        return code.getValueDescriptor().getOptions().getExtension(ErrorsProto.handling);
    }

    /** The code's name as printed; a code unknown to this build prints as its number. */
    public static String name(ErrorCode code, int number) {
        return code == ErrorCode.UNRECOGNIZED ? "ERROR_" + number : code.name();
    }
}
