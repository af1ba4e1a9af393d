package io.metaquorum.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;

/**
 * Differential: for random rule lists and certificate subjects, {@link SslPrincipalMapping}
 * gives what Kafka 4.4's own {@code SslPrincipalMapper} gives. Both refuse the same rule lists
 * and name the same fault; for an accepted list, each subject gets the same principal name
 * from both, or is refused by both.
 *
 * <p>The rule lists come from the rule grammar with its edges mixed in: escaped slashes,
 * groups and references to absent ones, flags, empty rules, white space and line breaks
 * around separators, text after a rule, broken regular expressions. The coverage check keeps
 * the generators honest: most lists must parse and many subjects must actually be mapped.
 */
class SslPrincipalMappingPropertyTest {
    /** Kafka's message for a rule it cannot read; the generators make no backticks, so the split is unambiguous. */
    private static final Pattern KAFKA_REFUSAL =
            Pattern.compile("Invalid rule: `(.*)`, unmatched substring: `(.*)`", Pattern.DOTALL);

    @Property(tries = 1000)
    void mapsEverySubjectAsKafkaDoes(@ForAll("ruleLists") String rules, @ForAll("subjectLists") List<String> subjects) {
        SslPrincipalMapper kafka;
        try {
            kafka = SslPrincipalMapper.fromRules(rules);
        } catch (IllegalArgumentException kafkaRefusal) {
            IllegalArgumentException ourRefusal = assertThrows(IllegalArgumentException.class,
                    () -> SslPrincipalMapping.parse(rules), "Kafka refuses " + rules + ": " + kafkaRefusal);
            assertSameFault(kafkaRefusal, ourRefusal.getMessage());
            Statistics.label("rules").collect("refused");
            checkCoverage();
            return;
        }
        Statistics.label("rules").collect("accepted");
        SslPrincipalMapping ours = SslPrincipalMapping.parse(rules);
        for (String subject : subjects) {
            Optional<String> expected = kafkaName(kafka, subject);
            assertEquals(expected, ourName(ours, subject), "rules " + rules + ", subject " + subject);
            Statistics.label("subjects").collect(expected.isPresent() ? "mapped" : "refused");
        }
        checkCoverage();
    }

    /** A property that compares nothing would pass: most lists must parse, and many subjects must map. */
    private static void checkCoverage() {
        Statistics.label("rules").coverage(rules -> {
            rules.check("accepted").percentage(p -> p >= 50);
            rules.check("refused").percentage(p -> p >= 5);
        });
        Statistics.label("subjects").coverage(subjects -> {
            subjects.check("mapped").percentage(p -> p >= 25);
            subjects.check("refused").percentage(p -> p >= 10);
        });
    }

    private static Optional<String> kafkaName(SslPrincipalMapper kafka, String subject) {
        try {
            return Optional.of(kafka.getName(subject));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Only {@link PrincipalMappingException} counts as a refusal; any other exception fails the property. */
    private static Optional<String> ourName(SslPrincipalMapping ours, String subject) {
        try {
            return Optional.of(ours.principalName(subject));
        } catch (PrincipalMappingException e) {
            return Optional.empty();
        }
    }

    private static void assertSameFault(IllegalArgumentException kafka, String ourMessage) {
        if (kafka instanceof PatternSyntaxException badPattern) {
            assertTrue(ourMessage.contains(badPattern.getDescription()), ourMessage + " vs " + kafka);
            return;
        }
        Matcher refusal = KAFKA_REFUSAL.matcher(kafka.getMessage());
        assertTrue(refusal.matches(), "an unknown Kafka message: " + kafka.getMessage());
        assertTrue(ourMessage.contains("`" + refusal.group(1) + "`"), ourMessage + " vs " + kafka.getMessage());
        assertTrue(ourMessage.contains("`" + refusal.group(2) + "`"), ourMessage + " vs " + kafka.getMessage());
    }

    @Provide
    Arbitrary<String> ruleLists() {
        return MappingArbitraries.ruleLists();
    }

    @Provide
    Arbitrary<List<String>> subjectLists() {
        return MappingArbitraries.subjects().list().ofMinSize(1).ofMaxSize(4);
    }
}
