package io.metaquorum.metadata.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Kafka's filter matching: ANY, exact names, and MATCH (the ACLs that apply to a name). */
class AclBindingFilterTest {
    private static AclBinding acl(ResourceType type, String name, PatternType pattern) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:alice", "*", AclOperation.READ, PermissionType.ALLOW));
    }

    private static AclBindingFilter resources(ResourceType type, String name, PatternType pattern) {
        return new AclBindingFilter(type, Optional.ofNullable(name), pattern, Optional.empty(), Optional.empty(),
                AclOperation.ANY, PermissionType.ANY);
    }

    private static final AclBinding ORDERS = acl(ResourceType.TOPIC, "orders", PatternType.LITERAL);
    private static final AclBinding EVERY_TOPIC = acl(ResourceType.TOPIC, "*", PatternType.LITERAL);
    private static final AclBinding ORD_PREFIX = acl(ResourceType.TOPIC, "ord", PatternType.PREFIXED);
    private static final AclBinding ORDERS_EU_PREFIX = acl(ResourceType.TOPIC, "orders-eu", PatternType.PREFIXED);
    private static final AclBinding OTHER = acl(ResourceType.TOPIC, "payments", PatternType.LITERAL);
    private static final AclBinding GROUP_ORDERS = acl(ResourceType.GROUP, "orders", PatternType.LITERAL);
    private static final List<AclBinding> ALL = List.of(ORDERS, EVERY_TOPIC, ORD_PREFIX, ORDERS_EU_PREFIX, OTHER,
            GROUP_ORDERS);

    private static List<AclBinding> matched(AclBindingFilter filter) {
        return ALL.stream().filter(filter::matches).toList();
    }

    @Test
    void matchOnANameFindsTheLiteralOneTheWildcardAndThePrefixesOfIt() {
        assertEquals(List.of(ORDERS, EVERY_TOPIC, ORD_PREFIX),
                matched(resources(ResourceType.TOPIC, "orders", PatternType.MATCH)));
    }

    @Test
    void anyPatternTypeWithANameFindsExactlyThatNameOfEitherPatternType() {
        AclBinding prefixedOrders = acl(ResourceType.TOPIC, "orders", PatternType.PREFIXED);
        AclBindingFilter filter = resources(ResourceType.TOPIC, "orders", PatternType.ANY);
        assertTrue(filter.matches(ORDERS));
        assertTrue(filter.matches(prefixedOrders));
        assertFalse(filter.matches(EVERY_TOPIC), "ANY compares names, it does not expand the wildcard");
        assertFalse(filter.matches(ORD_PREFIX));
    }

    @Test
    void aLiteralFilterOnTheWildcardFindsOnlyTheWildcardAcl() {
        assertEquals(List.of(EVERY_TOPIC), matched(resources(ResourceType.TOPIC, "*", PatternType.LITERAL)));
        assertEquals(List.of(ORD_PREFIX), matched(resources(ResourceType.TOPIC, "ord", PatternType.PREFIXED)));
    }

    @Test
    void theAnyFilterFindsEverythingAndResourceTypesSeparate() {
        assertEquals(ALL, matched(AclBindingFilter.ANY));
        assertEquals(List.of(GROUP_ORDERS), matched(resources(ResourceType.GROUP, null, PatternType.ANY)));
    }

    @Test
    void entryFieldsFilterByEquality() {
        AclBinding bobDeniedWrite = new AclBinding(ORDERS.pattern(),
                new AccessControlEntry("User:bob", "10.0.0.1", AclOperation.WRITE, PermissionType.DENY));
        AclBindingFilter bob = new AclBindingFilter(ResourceType.ANY, Optional.empty(), PatternType.ANY,
                Optional.of("User:bob"), Optional.empty(), AclOperation.ANY, PermissionType.ANY);
        assertTrue(bob.matches(bobDeniedWrite));
        assertFalse(bob.matches(ORDERS));
        assertTrue(AclBindingFilter.exactly(bobDeniedWrite).matches(bobDeniedWrite));
        AclBindingFilter otherHost = new AclBindingFilter(ResourceType.ANY, Optional.empty(), PatternType.ANY,
                Optional.empty(), Optional.of("*"), AclOperation.WRITE, PermissionType.DENY);
        assertFalse(otherHost.matches(bobDeniedWrite), "host * in a filter is the ACL host *, not every host");
    }

    @Test
    void aFilterWithAnUnknownFieldNamesIt() {
        assertEquals(Optional.of("pattern type"), resources(ResourceType.TOPIC, "t", PatternType.UNKNOWN)
                .unknownField());
        assertEquals(Optional.of("resource type"), resources(ResourceType.UNKNOWN, "t", PatternType.ANY)
                .unknownField());
        assertEquals(Optional.empty(), AclBindingFilter.ANY.unknownField());
    }
}
