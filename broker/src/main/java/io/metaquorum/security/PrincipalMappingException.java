package io.metaquorum.security;

/**
 * A certificate subject the configured rules cannot turn into a principal: no rule matched
 * it, or the rule that matched has a replacement Java's regex engine refuses. The listener
 * refuses that caller; the node goes on.
 */
public final class PrincipalMappingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PrincipalMappingException(String message) {
        super(message);
    }

    PrincipalMappingException(String message, Throwable cause) {
        super(message, cause);
    }
}
