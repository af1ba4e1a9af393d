package io.metaquorum.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** One rule of {@code ssl.principal.mapping.rules} per test; the results are Kafka 4.4's. */
class SslPrincipalMappingTest {
    private static final String SUBJECT = "CN=Node-1,OU=Ops,O=Acme";

    private static String map(String rules, String subject) {
        return SslPrincipalMapping.parse(rules).principalName(subject);
    }

    private static String refusal(String rules) {
        return assertThrows(IllegalArgumentException.class, () -> SslPrincipalMapping.parse(rules)).getMessage();
    }

    @Test
    void defaultKeepsTheWholeSubject() {
        assertEquals(SUBJECT, map("DEFAULT", SUBJECT));
        assertEquals(SUBJECT, map(SslPrincipalMapping.DEFAULT_RULES, SUBJECT));
        assertEquals(Principal.user(SUBJECT), SslPrincipalMapping.parse("DEFAULT").principal(SUBJECT));
    }

    @Test
    void aRuleRewritesWithItsGroups() {
        assertEquals("Node-1@Ops", map("RULE:^CN=(.*?),OU=(.*?),O=.*$/$1@$2/", SUBJECT));
        assertEquals("Node-1", map("RULE:CN=([^,]*),.*/$1/", SUBJECT));
    }

    @Test
    void theCommasOfASubjectNeedNoEscapeInAPattern() {
        assertEquals("ops", map("RULE:CN=[^,]*,OU=Ops,O=Acme/ops/, DEFAULT", SUBJECT));
    }

    @Test
    void anEscapedSlashBelongsToThePatternOrTheReplacement() {
        assertEquals("a/b", map("RULE:CN=a\\/b/a\\/b/", "CN=a/b"));
    }

    @Test
    void lAndULowerAndUpperTheResultInEnglish() {
        assertEquals("node-1", map("RULE:CN=([^,]*),.*/$1/L", SUBJECT));
        assertEquals("NODE-1", map("RULE:CN=([^,]*),.*/$1/U", SUBJECT));
        assertEquals("i", map("RULE:(.*)/$1/L", "I"), "no dotless i whatever the JVM's locale");
    }

    @Test
    void theFirstRuleThatMatchesDecides() {
        String rules = "RULE:CN=([^,]*),OU=Dev,.*/dev-$1/, RULE:CN=([^,]*),OU=Ops,.*/ops-$1/, DEFAULT";
        assertEquals("ops-Node-1", map(rules, SUBJECT));
        assertEquals("dev-x", map(rules, "CN=x,OU=Dev,O=Acme"));
        assertEquals("CN=x,OU=Sales", map(rules, "CN=x,OU=Sales"));
    }

    @Test
    void aPatternMustMatchTheWholeSubject() {
        assertThrows(PrincipalMappingException.class, () -> map("RULE:CN=Node-1/x/", SUBJECT));
    }

    @Test
    void aSubjectNoRuleMatchesHasNoPrincipal() {
        PrincipalMappingException e = assertThrows(PrincipalMappingException.class,
                () -> map("RULE:CN=x/y/", SUBJECT));
        assertTrue(e.getMessage().contains(SUBJECT), e.getMessage());
        assertThrows(PrincipalMappingException.class, () -> map("", SUBJECT), "no rules, no principal");
    }

    @Test
    void aPatternThatAlsoMatchesEmptyIsAppliedTwiceAsInKafka() {
        assertEquals("xCN=ax", map("RULE:(.*)/x$1/", "CN=a"));
    }

    @Test
    void aReferenceToAnAbsentGroupIsLiteralText() {
        assertEquals("a@$4", map("RULE:(a)(b)?(c)?/$1@$4/", "a"));
        assertEquals("a2", map("RULE:(a)/$12/", "a"), "Java takes a second digit only while it names a group");
    }

    @Test
    void referencesKafkaRefusesFailTheSubjectNotTheConfiguration() {
        SslPrincipalMapping noGroups = SslPrincipalMapping.parse("RULE:a/$1/, DEFAULT");
        assertThrows(PrincipalMappingException.class, () -> noGroups.principalName("a"));
        assertEquals("b", noGroups.principalName("b"), "only a subject the rule matches fails");
        // Kafka places the second backslash one character early: $2$3 becomes \$\2$3, and group 3 is absent.
        assertThrows(PrincipalMappingException.class, () -> map("RULE:(a)/$2$3/", "a"));
        assertThrows(PrincipalMappingException.class, () -> map("RULE:(a)/$99999999999/", "a"));
        assertThrows(PrincipalMappingException.class, () -> map("RULE:a/$/", "a"));
    }

    @Test
    void whiteSpaceAroundCommasAndEmptyRulesAreSkipped() {
        assertEquals("q", map(" , RULE:x/y/ ,\t,DEFAULT , ", "q"));
    }

    @Test
    void aRuleEndedByALineBreakInsteadOfACommaIsSkippedAsInKafka() {
        assertThrows(PrincipalMappingException.class, () -> map("DEFAULT\nRULE:a/b/", "x"));
        assertEquals("b", map("DEFAULT\nRULE:a/b/", "a"));
        assertEquals("x", map("RULE:a/b/,\nDEFAULT", "x"), "after a comma a line break is white space");
    }

    @Test
    void textAfterARuleIsRefusedNamingIt() {
        String message = refusal("RULE:a/b/Lx, DEFAULT");
        assertTrue(message.contains("`RULE:a/b/Lx`") && message.contains("`x`"), message);
        message = refusal("RULE:a/b/c/");
        assertTrue(message.contains("`RULE:a/b/c/`") && message.contains("`c/`"), message);
        message = refusal("DEFAULTS");
        assertTrue(message.contains("`DEFAULTS`") && message.contains("`S`"), message);
    }

    @Test
    void textThatIsNoRuleIsRefusedNamingIt() {
        String message = refusal("DEFAULT, User:alice");
        assertTrue(message.contains("`User:alice`"), message);
        assertTrue(refusal("RULE:a/b").contains("`RULE:a/b`"));
        assertTrue(refusal("rule:a/b/").contains("`rule:a/b/`"), "the keywords are upper case");
    }

    @Test
    void aPatternThatIsNoRegularExpressionIsRefusedNamingTheRule() {
        String message = refusal("DEFAULT, RULE:CN=(.*/$1/");
        assertTrue(message.contains("`RULE:CN=(.*/$1/`") && message.contains("Unclosed group"), message);
    }
}
