package io.metaquorum.security;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code RULE:pattern/replacement/} with an optional {@code L} or {@code U}: applies to a
 * subject the pattern matches as a whole, and rewrites it with the replacement ({@code $1} is
 * the first group) before changing its case.
 *
 * @param text the rule as written in the configuration, for messages
 */
record RewriteRule(String text, Pattern pattern, String replacement, CaseChange caseChange) implements MappingRule {
    @Override
    public Optional<String> apply(String distinguishedName) {
        Matcher whole = pattern.matcher(distinguishedName);
        if (!whole.matches()) {
            return Optional.empty();
        }
        String rewritten;
        try {
            // Every match is replaced, not just the whole one, because Kafka does so: a pattern
            // that can also match the empty string, like (.*), matches once more at the end, and
            // RULE:(.*)/x$1/ turns CN=a into xCN=ax.
            String escaped = AbsentGroupReferences.escape(replacement, whole.groupCount());
            rewritten = pattern.matcher(distinguishedName).replaceAll(escaped);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new PrincipalMappingException("rule `" + text + "` matches `" + distinguishedName
                    + "` but its replacement cannot be applied: " + e.getMessage(), e);
        }
        return Optional.of(caseChange.apply(rewritten));
    }

    @Override
    public String toString() {
        return text;
    }
}
