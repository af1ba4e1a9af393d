package io.metaquorum.metadata.authorizer;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Random ACLs whose names, principals and hosts collide often: names of one to three letters
 * from {@code a}, {@code b} and {@code *}, principals including {@code User:*} and
 * {@code Group:*}, hosts including {@code *}, every operation an ACL may name.
 */
final class AclArbitraries {
    static final List<String> ACL_PRINCIPALS = List.of("User:alice", "User:bob", "User:*", "Group:ops", "Group:*");
    static final List<String> ACL_HOSTS = List.of("*", "*", "10.0.0.1", "10.0.0.2", "10.0.0.0/31", "10.0.0.2/32",
            "10.0.0.0/8", "::/0", "::1/128");

    private AclArbitraries() {
    }

    /** Up to {@code max} distinct ACLs. */
    static Arbitrary<List<TestAcl>> acls(int max) {
        return acl().list().ofMaxSize(max).map(AclArbitraries::withIds);
    }

    /** Distinct ACLs (Kafka refuses a second copy), with ids that do not follow the order they are added in. */
    private static List<TestAcl> withIds(List<TestAcl> acls) {
        List<TestAcl> distinct = new ArrayList<>(new LinkedHashSet<>(acls));
        List<TestAcl> withIds = new ArrayList<>();
        for (int i = 0; i < distinct.size(); i++) {
            TestAcl a = distinct.get(i);
            withIds.add(new TestAcl(1 + (i * 37L) % 101, a.type(), a.name(), a.pattern(), a.principal(), a.host(),
                    a.operation(), a.permission()));
        }
        return withIds;
    }

    /** The operations whose implications differ, drawn often so that ACLs and requests meet. */
    static Arbitrary<AclOperation> commonOperations() {
        return Arbitraries.of(AclOperation.ALL, AclOperation.READ, AclOperation.WRITE, AclOperation.ALTER,
                AclOperation.DESCRIBE, AclOperation.ALTER_CONFIGS, AclOperation.DESCRIBE_CONFIGS);
    }

    static Arbitrary<String> names(int minLength, int maxLength) {
        return Arbitraries.strings().withChars("ab*").ofMinLength(minLength).ofMaxLength(maxLength);
    }

    static Arbitrary<ResourceType> types() {
        return Arbitraries.frequency(Tuple.of(12, ResourceType.TOPIC), Tuple.of(2, ResourceType.GROUP),
                Tuple.of(1, ResourceType.CLUSTER), Tuple.of(1, ResourceType.TRANSACTIONAL_ID),
                Tuple.of(1, ResourceType.DELEGATION_TOKEN), Tuple.of(1, ResourceType.USER));
    }

    private static Arbitrary<TestAcl> acl() {
        Arbitrary<AclOperation> operations = Arbitraries.frequencyOf(Tuple.of(3, commonOperations()),
                Tuple.of(1, Arbitraries.of(AclOperation.values())
                        .filter(op -> op != AclOperation.UNKNOWN && op != AclOperation.ANY)));
        Arbitrary<PermissionType> permissions = Arbitraries.frequency(Tuple.of(2, PermissionType.ALLOW),
                Tuple.of(1, PermissionType.DENY));
        return Combinators.combine(types(), names(1, 3), Arbitraries.of(PatternType.LITERAL, PatternType.PREFIXED),
                Arbitraries.of(ACL_PRINCIPALS), Arbitraries.of(ACL_HOSTS), operations, permissions)
                .as((type, name, pattern, principal, host, op, permission) -> new TestAcl(0, type, name, pattern,
                        principal, host, op, permission));
    }

}
