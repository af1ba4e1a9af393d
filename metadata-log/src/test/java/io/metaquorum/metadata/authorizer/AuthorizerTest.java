package io.metaquorum.metadata.authorizer;

import static io.metaquorum.metadata.acl.AclOperation.ALL;
import static io.metaquorum.metadata.acl.AclOperation.ALTER;
import static io.metaquorum.metadata.acl.AclOperation.ALTER_CONFIGS;
import static io.metaquorum.metadata.acl.AclOperation.CREATE;
import static io.metaquorum.metadata.acl.AclOperation.DELETE;
import static io.metaquorum.metadata.acl.AclOperation.DESCRIBE;
import static io.metaquorum.metadata.acl.AclOperation.DESCRIBE_CONFIGS;
import static io.metaquorum.metadata.acl.AclOperation.READ;
import static io.metaquorum.metadata.acl.AclOperation.WRITE;
import static io.metaquorum.metadata.acl.PatternType.LITERAL;
import static io.metaquorum.metadata.acl.PatternType.PREFIXED;
import static io.metaquorum.metadata.acl.ResourceType.CLUSTER;
import static io.metaquorum.metadata.acl.ResourceType.GROUP;
import static io.metaquorum.metadata.acl.ResourceType.TOPIC;
import static io.metaquorum.metadata.authorizer.TestAcl.allow;
import static io.metaquorum.metadata.authorizer.TestAcl.deny;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.image.AclsImage;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One rule of Kafka's StandardAuthorizer per test, and the explanation each rule prints. */
class AuthorizerTest {
    private static final String BOB = "User:bob";
    private static final String HOST = "127.0.0.1";
    private static final AuthorizerSettings DENY_BY_DEFAULT = AuthorizerSettings.DEFAULT;
    private static final AuthorizerSettings ALLOW_EVERYONE = new AuthorizerSettings(Set.of(), true);

    /** The decision, checked against the answer-only path, which must agree on every request. */
    private static Decision decide(AclsImage acls, AuthorizerSettings settings, String principal, AclOperation op,
                                   ResourceType type, String name) {
        Decision decision = Authorizer.decide(acls, settings, principal, HOST, op, type, name);
        assertEquals(decision.allowed(), Authorizer.allows(acls, settings, principal, HOST, op, type, name),
                decision::explain);
        return decision;
    }

    private static Decision decide(AclsImage acls, AclOperation op, String topic) {
        return decide(acls, DENY_BY_DEFAULT, BOB, op, TOPIC, topic);
    }

    @Test
    void withoutAnyAclTheDefaultDenies() {
        Decision decision = decide(AclsImage.EMPTY, WRITE, "orders");
        assertFalse(decision.allowed());
        assertEquals(Decision.Rule.NO_ACL_FOR_RESOURCE, decision.rule());
        assertEquals("DENIED User:bob WRITE TOPIC orders from 127.0.0.1: no ACL allows it (default deny)",
                decision.explain());
    }

    @Test
    void aSuperUserIsAllowedBeforeAnyAclIsRead() {
        AclsImage acls = TestAcl.image(deny(1, "User:admin", ALL, TOPIC, LITERAL, "orders"));
        AuthorizerSettings settings = new AuthorizerSettings(AuthorizerSettings.parseSuperUsers(" User:admin ;;User:x"),
                false);
        Decision decision = decide(acls, settings, "User:admin", WRITE, TOPIC, "orders");
        assertTrue(decision.allowed());
        assertEquals("ALLOWED User:admin WRITE TOPIC orders from 127.0.0.1: super user", decision.explain());
        assertFalse(decide(acls, settings, "User:Admin", WRITE, TOPIC, "orders").allowed(), "exact string match");
    }

    @Test
    void aMatchingAllowAllowsAndIsNamed() {
        TestAcl acl = allow(3, "User:*", WRITE, TOPIC, PREFIXED, "ord");
        Decision decision = decide(TestAcl.image(acl), WRITE, "orders");
        assertTrue(decision.allowed());
        assertEquals("ALLOWED User:bob WRITE TOPIC orders from 127.0.0.1 by ACL " + acl.idText()
                + " (ALLOW User:* WRITE TOPIC PREFIXED ord)", decision.explain());
    }

    @Test
    void denyBeatsAllowAndTheLowestIdDenyIsNamed() {
        TestAcl allowAll = allow(1, BOB, ALL, TOPIC, LITERAL, "orders");
        TestAcl laterDeny = deny(9, BOB, WRITE, TOPIC, LITERAL, "orders");
        TestAcl earlierDeny = deny(4, "User:*", WRITE, TOPIC, PREFIXED, "o");
        Decision decision = decide(TestAcl.image(allowAll, laterDeny, earlierDeny), WRITE, "orders");
        assertFalse(decision.allowed());
        assertEquals("DENIED User:bob WRITE TOPIC orders from 127.0.0.1 by ACL " + earlierDeny.idText()
                + " (DENY User:* WRITE TOPIC PREFIXED o)", decision.explain());
        assertTrue(decide(TestAcl.image(allowAll, laterDeny, earlierDeny), READ, "orders").allowed());
    }

    @Test
    void allCoversEveryOperationForAllowAndDeny() {
        TestAcl allowAll = allow(1, BOB, ALL, TOPIC, LITERAL, "orders");
        for (AclOperation op : List.of(READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, ALTER_CONFIGS)) {
            Decision decision = decide(TestAcl.image(allowAll), op, "orders");
            assertTrue(decision.allowed(), op.name());
            assertTrue(decision.explain().endsWith("; ALL covers " + op + ")"), decision.explain());
            assertFalse(decide(TestAcl.image(allowAll, deny(2, BOB, ALL, TOPIC, LITERAL, "orders")), op, "orders")
                    .allowed(), op.name());
        }
    }

    @Test
    void readWriteDeleteAndAlterImplyDescribeForAllowOnly() {
        for (AclOperation op : List.of(READ, WRITE, DELETE, ALTER)) {
            TestAcl acl = allow(1, BOB, op, TOPIC, LITERAL, "orders");
            Decision decision = decide(TestAcl.image(acl), DESCRIBE, "orders");
            assertTrue(decision.allowed(), op.name());
            assertEquals("ALLOWED User:bob DESCRIBE TOPIC orders from 127.0.0.1 by ACL " + acl.idText()
                    + " (ALLOW User:bob " + op + " TOPIC LITERAL orders; " + op + " implies DESCRIBE)",
                    decision.explain());
            TestAcl denial = deny(2, BOB, op, TOPIC, LITERAL, "orders");
            AclsImage both = TestAcl.image(allow(1, BOB, DESCRIBE, TOPIC, LITERAL, "orders"), denial);
            assertTrue(decide(both, DESCRIBE, "orders").allowed(), "a DENY " + op + " does not deny DESCRIBE");
        }
        assertFalse(decide(TestAcl.image(allow(1, BOB, CREATE, TOPIC, LITERAL, "orders")), DESCRIBE, "orders")
                .allowed());
        assertFalse(decide(TestAcl.image(allow(1, BOB, READ, TOPIC, LITERAL, "orders")), WRITE, "orders").allowed());
    }

    @Test
    void alterConfigsImpliesDescribeConfigsForAllowOnly() {
        assertTrue(decide(TestAcl.image(allow(1, BOB, ALTER_CONFIGS, TOPIC, LITERAL, "t")), DESCRIBE_CONFIGS, "t")
                .allowed());
        assertFalse(decide(TestAcl.image(allow(1, BOB, ALTER, TOPIC, LITERAL, "t")), DESCRIBE_CONFIGS, "t")
                .allowed());
        AclsImage both = TestAcl.image(allow(1, BOB, DESCRIBE_CONFIGS, TOPIC, LITERAL, "t"),
                deny(2, BOB, ALTER_CONFIGS, TOPIC, LITERAL, "t"));
        assertTrue(decide(both, DESCRIBE_CONFIGS, "t").allowed());
    }

    @Test
    void literalNamesOneResourceOrEveryOneWithTheWildcard() {
        AclsImage literal = TestAcl.image(allow(1, BOB, READ, TOPIC, LITERAL, "ord"));
        assertTrue(decide(literal, READ, "ord").allowed());
        assertFalse(decide(literal, READ, "orders").allowed(), "a literal is not a prefix");
        AclsImage wildcard = TestAcl.image(allow(1, BOB, READ, TOPIC, LITERAL, "*"));
        assertTrue(decide(wildcard, READ, "anything").allowed());
        assertTrue(decide(wildcard, READ, "*").allowed());
        assertFalse(decide(wildcard, DENY_BY_DEFAULT, BOB, READ, GROUP, "*x").allowed(), "Kafka's quirk");
        assertTrue(decide(TestAcl.image(allow(1, BOB, READ, GROUP, LITERAL, "*")), ALLOW_EVERYONE, BOB, WRITE, GROUP,
                "*x").allowed(), "for a name starting with *, the * ACL does not name it either");
        AclsImage prefixedStar = TestAcl.image(allow(1, BOB, READ, TOPIC, PREFIXED, "*"));
        assertFalse(decide(prefixedStar, READ, "anything").allowed(), "PREFIXED * is only a prefix");
        assertTrue(decide(prefixedStar, READ, "*x").allowed());
    }

    @Test
    void prefixedMatchesEveryResourceStartingWithIt() {
        AclsImage acls = TestAcl.image(allow(1, BOB, READ, TOPIC, PREFIXED, "orders-eu"),
                allow(2, BOB, WRITE, TOPIC, PREFIXED, "orders-eu-1"), allow(3, BOB, CREATE, TOPIC, PREFIXED, "orders-f"));
        assertTrue(decide(acls, READ, "orders-eu-12").allowed());
        assertTrue(decide(acls, WRITE, "orders-eu-12").allowed());
        assertTrue(decide(acls, READ, "orders-eu").allowed());
        assertFalse(decide(acls, WRITE, "orders-eu-2").allowed());
        assertFalse(decide(acls, CREATE, "orders-eu-12").allowed());
        assertFalse(decide(acls, READ, "orders-e").allowed());
    }

    @Test
    void userWildcardMatchesEveryPrincipalButNoOtherTypeIsAWildcard() {
        AclsImage userStar = TestAcl.image(allow(1, "User:*", READ, GROUP, LITERAL, "g"));
        assertTrue(decide(userStar, DENY_BY_DEFAULT, "User:carol", READ, GROUP, "g").allowed());
        assertTrue(decide(userStar, DENY_BY_DEFAULT, "Group:ops", READ, GROUP, "g").allowed());
        AclsImage groupStar = TestAcl.image(allow(1, "Group:*", READ, GROUP, LITERAL, "g"));
        assertFalse(decide(groupStar, DENY_BY_DEFAULT, "Group:ops", READ, GROUP, "g").allowed());
        assertTrue(decide(groupStar, DENY_BY_DEFAULT, "Group:*", READ, GROUP, "g").allowed());
    }

    @Test
    void hostMatchesExactlyOrByWildcard() {
        TestAcl acl = allow(1, BOB, READ, TOPIC, LITERAL, "t").from("127.0.0.1");
        assertTrue(decide(TestAcl.image(acl), READ, "t").allowed());
        assertTrue(decide(TestAcl.image(acl), READ, "t").explain().endsWith("(ALLOW User:bob READ TOPIC LITERAL t"
                + " from 127.0.0.1)"));
        AclsImage other = TestAcl.image(acl.from("127.0.0.10"));
        assertFalse(Authorizer.decide(other, DENY_BY_DEFAULT, BOB, "127.0.0.1", READ, TOPIC, "t").allowed());
    }

    /** Kafka 4.4.0's answers (CidrUtils.isInRange, asked directly) for these ranges. */
    @Test
    void hostMatchesACidrRangeAsKafkaDoes() {
        String[][] inRange = {{"10.0.0.1", "10.0.0.0/24"}, {"10.0.0.1", "10.0.0.0/0"}, {"10.0.0.1", "10.0.0.1/32"},
            {"10.0.0.1", "10.0.0.5/24"}, {"10.0.0.255", "10.0.0.0/24"}, {"10.0.0.1", "10.0.0.0/08"},
            {"10.0.0.1", "010.0.0.0/8"}, {"0:0:0:0:0:0:0:1", "::1/128"}, {"0:0:0:0:0:0:0:1", "::/0"},
            {"fe80:0:0:0:0:0:0:1", "FE80::/10"}, {"0:0:0:0:0:0:a0a:1", "::10.10.0.0/112"}, {"1::8", "1::/64"},
            {"1:2:3:4:5:6:7:8", "1:2:3:4::/64"}, {"10.0.0.1", "10.0.0.0/31"}};
        String[][] outOfRange = {{"10.0.1.0", "10.0.0.0/24"}, {"10.0.0.1", "10.0.0.0/33"}, {"10.0.0.1", "256.0.0.0/8"},
            {"10.0.0.1", " 10.0.0.0/8"}, {"10.0.0.1", "10.0.0.0/8 "}, {"10.0.0.1", "10.0.0.0/"}, {"10.0.0.1", "10.0.0/8"},
            {"0:0:0:0:0:0:0:1", "10.0.0.0/8"}, {"10.0.0.1", "::/0"}, {"fe80:0:0:0:0:0:0:1", "fe80::/129"},
            {"10.0.0.2", "10.0.0.1/31"}, {"10.0.0.1", "10.0.0.1/-1"}, {"10.0.0.1", "10.0.0.1/1/2"},
            {"1:2:3:5:5:6:7:8", "1:2:3:4::/64"}, {"1:2:3:4:5:6:7:8", "1:2:3:4:0:0:0:0:0/64"}};
        for (String[] c : inRange) {
            AclsImage acls = TestAcl.image(allow(1, BOB, READ, TOPIC, LITERAL, "t").from(c[1]));
            assertTrue(Authorizer.decide(acls, DENY_BY_DEFAULT, BOB, c[0], READ, TOPIC, "t").allowed(), c[0] + " " + c[1]);
            assertTrue(Authorizer.allows(acls, DENY_BY_DEFAULT, BOB, c[0], READ, TOPIC, "t"), c[0] + " " + c[1]);
        }
        for (String[] c : outOfRange) {
            AclsImage acls = TestAcl.image(allow(1, BOB, READ, TOPIC, LITERAL, "t").from(c[1]));
            assertFalse(Authorizer.decide(acls, DENY_BY_DEFAULT, BOB, c[0], READ, TOPIC, "t").allowed(), c[0] + " " + c[1]);
            assertFalse(Authorizer.allows(acls, DENY_BY_DEFAULT, BOB, c[0], READ, TOPIC, "t"), c[0] + " " + c[1]);
        }
    }

    @Test
    void allowEveryoneAppliesOnlyWhenNoAclNamesTheResource() {
        assertTrue(decide(AclsImage.EMPTY, ALLOW_EVERYONE, BOB, WRITE, TOPIC, "orders").allowed());
        assertEquals("ALLOWED User:bob WRITE TOPIC orders from 127.0.0.1: no ACL names the resource"
                + " (allow.everyone.if.no.acl.found)",
                decide(AclsImage.EMPTY, ALLOW_EVERYONE, BOB, WRITE, TOPIC, "orders").explain());
        for (TestAcl other : List.of(allow(1, "User:carol", READ, TOPIC, LITERAL, "orders"),
                allow(1, "User:carol", READ, TOPIC, PREFIXED, "or"), allow(1, "User:carol", READ, TOPIC, LITERAL, "*"),
                deny(1, BOB, READ, TOPIC, LITERAL, "orders").from("10.9.9.9"))) {
            Decision decision = decide(TestAcl.image(other), ALLOW_EVERYONE, BOB, WRITE, TOPIC, "orders");
            assertFalse(decision.allowed(), other.toString());
            assertEquals(Decision.Rule.NO_ACL_MATCHES, decision.rule());
            assertEquals("DENIED User:bob WRITE TOPIC orders from 127.0.0.1: no ACL allows it (default deny; 1 ACL"
                    + " names the resource, none for this principal, host and operation)", decision.explain());
        }
        AclsImage elsewhere = TestAcl.image(allow(1, "User:carol", READ, TOPIC, LITERAL, "order"),
                allow(2, "User:carol", READ, GROUP, LITERAL, "orders"), allow(3, "User:carol", READ, TOPIC, PREFIXED,
                        "orders-"));
        assertTrue(decide(elsewhere, ALLOW_EVERYONE, BOB, WRITE, TOPIC, "orders").allowed(),
                "ACLs of other resources do not count");
    }

    @Test
    void resourceTypesAreSeparateAndTheClusterIsOneResource() {
        AclsImage acls = TestAcl.image(allow(1, BOB, ALTER, CLUSTER, LITERAL, Authorizer.CLUSTER_NAME));
        assertTrue(decide(acls, DENY_BY_DEFAULT, BOB, ALTER, CLUSTER, "kafka-cluster").allowed());
        assertFalse(decide(acls, DENY_BY_DEFAULT, BOB, ALTER, TOPIC, "kafka-cluster").allowed());
    }

    @Test
    void removingAnAclUndoesItAndLeavesAnImageEqualToOneWithoutIt() {
        TestAcl keep = allow(1, BOB, READ, TOPIC, LITERAL, "orders");
        TestAcl gone = deny(2, BOB, READ, TOPIC, PREFIXED, "ord");
        AclsImage removed = TestAcl.image(List.of(keep, gone), List.of(gone));
        assertTrue(decide(removed, READ, "orders").allowed());
        assertEquals(TestAcl.image(keep), removed);
        assertEquals(TestAcl.image(keep).hashCode(), removed.hashCode());
        assertNotEquals(TestAcl.image(keep, gone), removed);
        assertFalse(decide(TestAcl.image(List.of(keep, gone), List.of(gone, keep)), READ, "orders").allowed());
    }
}
