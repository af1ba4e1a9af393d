package io.metaquorum.security;

import io.metaquorum.common.invariant.Invariants;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The text of {@code ssl.principal.mapping.rules}, read exactly as Kafka 4.4 reads it: the
 * same texts are accepted, cut into the same rules, and refused for the same reasons.
 * {@code SslPrincipalMappingPropertyTest} holds this against Kafka's own parser.
 *
 * <p>A rule is {@code DEFAULT} or {@code RULE:pattern/replacement/} followed by an optional
 * {@code L} or {@code U}. Inside the pattern and the replacement a backslash takes the next
 * character with it, so {@code \/} is a slash that does not end the part; the pair goes to
 * Java's regex engine as written. Rules are separated by a comma with optional white space
 * around it. Consequences worth knowing, all Kafka's:
 * <ul>
 *   <li>A comma ends a rule only where a whole rule can end, so the commas of a
 *       distinguished name need no escape inside a pattern: {@code RULE:CN=(.*),OU=ops/$1/}.
 *   <li>Anything between a rule's end and the next comma stays with the rule, which is then
 *       refused naming that text ({@code RULE:a/b/Lx}, {@code RULE:a/b/c/}).
 *   <li>Empty rules (two commas in a row, a trailing comma) are skipped. A list of no rules
 *       at all is accepted and maps no subject.
 *   <li>A line break is not a separator, and text on a line that ends without a comma is
 *       skipped without a word: {@code DEFAULT}, a line break, then {@code RULE:a/b/} is the
 *       one rule {@code RULE:a/b/}. The scan below looks for the next place a rule and a
 *       separator fit, and such text is not one.
 * </ul>
 */
final class RuleListSyntax {
    /** A pattern or a replacement: backslash pairs and characters other than a backslash or a slash. */
    private static final String PART = "(?:\\\\.|[^\\\\/])*";

    /**
     * One rule. The lazy {@code .*?} after the flag matches nothing when a rule is read on its
     * own, and in the scan lets trailing junk up to the separator stay with its rule. The last
     * alternative, also lazy, is what the scan takes for anything that is not a rule; read on its
     * own it accepts only the empty text.
     */
    private static final String RULE = "(?<default>DEFAULT)"
            + "|RULE:(?<pattern>" + PART + ")/(?<replacement>" + PART + ")/(?<case>[LU]?).*?"
            + "|.*?";

    private static final Pattern ONE_RULE = Pattern.compile(RULE);

    private static final Pattern RULE_THEN_SEPARATOR = Pattern.compile("\\s*(?<rule>" + RULE + ")\\s*(?:,\\s*|$)");

    private RuleListSyntax() {
    }

    /** The rules in the order written. Throws {@link IllegalArgumentException} naming the first bad rule. */
    static List<MappingRule> parse(String rulesText) {
        List<MappingRule> rules = new ArrayList<>();
        Matcher scan = RULE_THEN_SEPARATOR.matcher(rulesText.trim());
        while (scan.find()) {
            parseRule(scan.group("rule")).ifPresent(rules::add);
        }
        return rules;
    }

    /** One rule as cut out by the scan; empty for the empty text, which is no rule. */
    private static Optional<MappingRule> parseRule(String ruleText) {
        Matcher rule = ONE_RULE.matcher(ruleText);
        Invariants.check(rule.lookingAt(), "the last alternative matches any text, yet not %s", ruleText);
        if (rule.end() == 0 && !ruleText.isEmpty()) {
            throw new IllegalArgumentException("invalid rule `" + ruleText
                    + "`: a rule is DEFAULT or RULE:pattern/replacement/ with an optional L or U after it");
        }
        if (rule.end() != ruleText.length()) {
            throw new IllegalArgumentException("invalid rule `" + ruleText + "`: unexpected `"
                    + ruleText.substring(rule.end()) + "` after the end of the rule");
        }
        if (rule.group("default") != null) {
            return Optional.of(new WholeNameRule());
        }
        if (rule.group("pattern") == null) {
            return Optional.empty();
        }
        return Optional.of(new RewriteRule(ruleText, compile(ruleText, rule.group("pattern")), rule.group("replacement"),
                CaseChange.ofFlag(rule.group("case"))));
    }

    private static Pattern compile(String ruleText, String pattern) {
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid rule `" + ruleText + "`: its pattern `" + pattern
                    + "` is not a Java regular expression: " + e.getDescription() + " at index " + e.getIndex(), e);
        }
    }
}
