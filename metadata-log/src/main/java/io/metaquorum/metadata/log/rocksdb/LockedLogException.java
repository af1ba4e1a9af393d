package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.raft.storage.StorageException;

/**
 * The metadata log database is locked by another open writer: a running node (or another
 * tool) holds it. Told apart from other open failures so that an offline tool that writes can
 * say "stop the node first" instead of relaying RocksDB's words.
 */
public final class LockedLogException extends StorageException {
    private static final long serialVersionUID = 1L;

    LockedLogException(String message, Throwable cause) {
        super(message, cause);
    }
}
