package io.metaquorum.security;

import java.util.Optional;

/** One rule of {@code ssl.principal.mapping.rules}: {@code DEFAULT} or {@code RULE:pattern/replacement/}. */
sealed interface MappingRule permits WholeNameRule, RewriteRule {
    /**
     * The principal name this rule gives a certificate subject, or empty when the rule does
     * not apply to it and the next rule is tried. Throws {@link PrincipalMappingException}
     * when the rule applies but cannot produce a name.
     */
    Optional<String> apply(String distinguishedName);
}
