package io.metaquorum.security;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Rule lists and certificate subjects for {@link SslPrincipalMappingPropertyTest}. Rules follow
 * the grammar of {@code ssl.principal.mapping.rules} with its edges mixed in at a low rate;
 * patterns are made of the pieces subjects are made of, so that rules often match. Nothing
 * here makes a backtick, which the test uses to read Kafka's messages.
 */
final class MappingArbitraries {
    private MappingArbitraries() {
    }

    /** A subject as {@code X500Principal.getName()} writes one, and some it would not. */
    static Arbitrary<String> subjects() {
        Arbitrary<String> type = Arbitraries.of("CN", "OU", "O", "L", "ST", "C", "DC");
        Arbitrary<String> value = Arbitraries.of("a", "b", "Node", "1", "42", " ", "-", ".", "\\,", "\\+", "\\\\",
                "\\\"", "\\;", "=", "#", "é", "漢字", "\uD83D\uDE00", "I", "i", "ß", "/", "$1").list().ofMaxSize(5)
                .map(pieces -> String.join("", pieces));
        Arbitrary<String> attribute = Combinators.combine(type, value).as((t, v) -> t + "=" + v);
        Arbitrary<String> rdn = Arbitraries.frequencyOf(
                Tuple.of(9, attribute),
                Tuple.of(1, Combinators.combine(attribute, attribute).as((a, b) -> a + "+" + b)));
        return Arbitraries.frequencyOf(
                Tuple.of(20, rdn.list().ofMinSize(1).ofMaxSize(5).map(rdns -> String.join(",", rdns))),
                Tuple.of(1, Arbitraries.of("", "a", "CN=")));
    }

    static Arbitrary<String> ruleLists() {
        Arbitrary<String> edge = Arbitraries.frequency(
                Tuple.of(12, ""), Tuple.of(2, " "), Tuple.of(1, "\n"), Tuple.of(1, ","), Tuple.of(1, "\u2028"),
                Tuple.of(1, "\u0001"));
        Arbitrary<List<String>> rules = rule().list().ofMinSize(1).ofMaxSize(4);
        Arbitrary<List<String>> separators = separator().list().ofSize(3);
        return Combinators.combine(edge, rules, separators, edge).as((lead, ruleTexts, seps, trail) -> {
            StringBuilder text = new StringBuilder(lead);
            for (int i = 0; i < ruleTexts.size(); i++) {
                if (i > 0) {
                    text.append(seps.get(i - 1));
                }
                text.append(ruleTexts.get(i));
            }
            return text.append(trail).toString();
        });
    }

    private static Arbitrary<String> separator() {
        return Arbitraries.frequency(
                Tuple.of(10, ","), Tuple.of(10, ", "), Tuple.of(3, " , "), Tuple.of(1, "\t,\n "),
                Tuple.of(1, ",,"), Tuple.of(1, ", ,"), Tuple.of(1, "\n"), Tuple.of(1, " "), Tuple.of(1, "\u0085,"));
    }

    private static Arbitrary<String> rule() {
        Arbitrary<String> rewrite = Combinators.combine(pattern(), replacement(), flag())
                .as((pattern, replacement, flag) -> "RULE:" + pattern + "/" + replacement + "/" + flag);
        return Arbitraries.frequencyOf(
                Tuple.of(12, rewrite),
                Tuple.of(3, Arbitraries.just("DEFAULT")),
                Tuple.of(1, Arbitraries.of("", "DEFAULTS", "default", "RULE:a/b", "rule:a/b/", "User:alice",
                        "RULE:/", "RULE:a\\/b", "DEFAULT DEFAULT", "RULE:x\\\n/y/")));
    }

    private static Arbitrary<String> pattern() {
        Arbitrary<String> piece = Arbitraries.frequency(
                Tuple.of(6, "(.*)"), Tuple.of(4, "(.*?)"), Tuple.of(6, "([^,]*)"), Tuple.of(3, "[^,]*"),
                Tuple.of(6, ","), Tuple.of(6, "CN="), Tuple.of(3, "OU="), Tuple.of(2, "O="), Tuple.of(2, "DC="),
                Tuple.of(2, "(?:CN|OU)="), Tuple.of(2, "([A-Z]+)="), Tuple.of(4, ".*"), Tuple.of(1, "^"),
                Tuple.of(1, "$"), Tuple.of(2, "\\\\,"), Tuple.of(1, "(\\\\,)?"), Tuple.of(2, "a"), Tuple.of(1, "Node"),
                Tuple.of(1, " "), Tuple.of(1, "é"), Tuple.of(1, "\\/"), Tuple.of(1, "(?<n>[^,]*)"),
                Tuple.of(1, "("), Tuple.of(1, ")"), Tuple.of(1, "["), Tuple.of(1, "\\d"), Tuple.of(1, "(?i)cn="),
                Tuple.of(1, "I"), Tuple.of(1, "(a)?"), Tuple.of(1, "\\\\"));
        Arbitrary<String> tail = Arbitraries.frequency(Tuple.of(3, ""), Tuple.of(2, ".*"), Tuple.of(2, "(.*)"));
        // At most four groups that can each match anything: more, and a subject they fail to match takes seconds.
        return Combinators.combine(piece.list().ofMaxSize(3), tail)
                .as((pieces, end) -> String.join("", pieces) + end);
    }

    private static Arbitrary<String> replacement() {
        Arbitrary<String> piece = Arbitraries.frequency(
                Tuple.of(8, "$1"), Tuple.of(4, "$2"), Tuple.of(2, "$3"), Tuple.of(1, "$0"), Tuple.of(1, "$01"),
                Tuple.of(1, "$12"), Tuple.of(2, "$9"), Tuple.of(2, "$5"), Tuple.of(1, "$99999999999"),
                Tuple.of(4, "@"), Tuple.of(4, "x"), Tuple.of(1, " "), Tuple.of(2, "-"), Tuple.of(1, "\\$1"),
                Tuple.of(1, "\\\\"), Tuple.of(1, "\\/"), Tuple.of(1, "$"), Tuple.of(1, "${n}"), Tuple.of(1, "é"),
                Tuple.of(1, "ß"), Tuple.of(1, "I"), Tuple.of(1, ","));
        return piece.list().ofMaxSize(4).map(pieces -> String.join("", pieces));
    }

    private static Arbitrary<String> flag() {
        return Arbitraries.frequency(
                Tuple.of(10, ""), Tuple.of(4, "L"), Tuple.of(4, "U"), Tuple.of(1, "X"), Tuple.of(1, "c/"),
                Tuple.of(1, " x"), Tuple.of(1, "LU"), Tuple.of(1, " "));
    }
}
