package io.metaquorum.node.access;

import io.metaquorum.metadata.authorizer.Decision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a node writes its authorization denials: one line each, with principal, host,
 * operation, resource and the deciding rule ({@link Decision#explain}).
 */
@FunctionalInterface
public interface AuditLog {
    /** The logger {@value #LOGGER_NAME} at INFO, apart from the node's own log lines. */
    AuditLog SLF4J = new AuditLog() {
        private final Logger logger = LoggerFactory.getLogger(LOGGER_NAME);

        @Override
        public void denied(Decision decision) {
            logger.info("{}", decision.explain());
        }
    };

    String LOGGER_NAME = "io.metaquorum.audit";

    void denied(Decision decision);
}
