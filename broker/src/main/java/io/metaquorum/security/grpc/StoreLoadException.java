package io.metaquorum.security.grpc;

/** A key store or trust store that cannot be read, with the reason in an operator's words. */
public final class StoreLoadException extends RuntimeException {
    public StoreLoadException(String message) {
        super(message);
    }

    public StoreLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
