package io.metaquorum.common.fault;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link FaultHandler}: logs one ERROR line (the message, which carries the
 * node context such as {@code [node 1]}, and the cause) and halts the JVM with status 1.
 *
 * <p>Why {@code halt} and not {@code exit}: after a broken invariant, corrupt data or a
 * failed sync nothing may run any more on this node's behalf, shutdown hooks included (a
 * hook could flush, answer a client or resign with state that is no longer trusted). The
 * restarted process rebuilds its state from what is durable.
 *
 * <p>A full disk ({@link DiskFull}) is logged as one line without the stack trace: where it
 * happened says nothing the message (which names the path) does not, and the remedy is the
 * operator's, not a developer's.
 *
 * <p>Thread-safe; never returns.
 */
public final class ProcessTerminatingFaultHandler implements FaultHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessTerminatingFaultHandler.class);

    @Override
    public void handleFault(String message, Throwable cause) {
        try {
            if (cause != null && DiskFull.isCause(cause)) {
                LOG.error("{} (halting the process)", DiskFull.stopLine(message, cause));
            } else {
                LOG.error("{} (halting the process)", message, cause);
            }
            System.err.flush();
            System.out.flush();
        } finally {
            Runtime.getRuntime().halt(1);
        }
    }
}
