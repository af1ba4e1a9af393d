package io.metaquorum.security;

import java.util.List;
import java.util.Optional;

/**
 * {@code ssl.principal.mapping.rules}: how a TLS caller's certificate subject becomes its
 * principal name, with Kafka 4.4's syntax and results. The subject is the distinguished name
 * in RFC 2253 form, as {@code X500Principal.getName()} gives it ({@code CN=node-1,OU=ops,O=acme}).
 *
 * <p>Rules are tried in order and the first whose pattern matches the whole subject decides.
 * When none does, the caller has no principal and is refused, as in Kafka: a list without
 * {@code DEFAULT} at its end is a list of the only subjects allowed in. The syntax, and which
 * texts are refused, are in {@link RuleListSyntax}.
 */
public final class SslPrincipalMapping {
    /** Kafka's default: every subject maps to itself. */
    public static final String DEFAULT_RULES = "DEFAULT";

    private final String rulesText;
    private final List<MappingRule> rules;

    private SslPrincipalMapping(String rulesText, List<MappingRule> rules) {
        this.rulesText = rulesText;
        this.rules = List.copyOf(rules);
    }

    /**
     * Reads the configuration text once. Throws {@link IllegalArgumentException} naming the
     * first rule that is not {@code DEFAULT} or {@code RULE:pattern/replacement/[L|U]}, or
     * whose pattern is not a Java regular expression. A replacement is not checked here, as
     * Kafka does not: one Java refuses fails each subject its rule matches.
     */
    public static SslPrincipalMapping parse(String rulesText) {
        return new SslPrincipalMapping(rulesText, RuleListSyntax.parse(rulesText));
    }

    /**
     * The principal name for a certificate subject. Throws {@link PrincipalMappingException}
     * when no rule matches it, or when the rule that matches has a replacement Java refuses.
     */
    public String principalName(String distinguishedName) {
        for (MappingRule rule : rules) {
            Optional<String> name = rule.apply(distinguishedName);
            if (name.isPresent()) {
                return name.get();
            }
        }
        throw new PrincipalMappingException("no rule of `" + rulesText + "` matches the certificate subject `"
                + distinguishedName + "`");
    }

    /** The caller's principal: {@code User:} and its {@link #principalName}. */
    public Principal principal(String distinguishedName) {
        return Principal.user(principalName(distinguishedName));
    }

    @Override
    public String toString() {
        return "SslPrincipalMapping" + rules;
    }
}
