package io.metaquorum.raft.storage;

/** A failed read, write or sync. The node cannot go on safely and stops. */
public class StorageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
