package io.metaquorum.metadata.authorizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.image.AclsImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.Tuple;

/**
 * Our authorizer decides every request as Kafka's own {@code StandardAuthorizer} does, given the
 * same ACLs (added, some then removed), super users and {@code allow.everyone.if.no.acl.found}.
 * Names come from a three-letter alphabet that includes {@code *}, so literals, prefixes and
 * the wildcard collide on most requests; principals include {@code User:*} and
 * {@code Group:*}, hosts {@code *} and CIDR ranges of both families. Both of our paths are
 * compared: {@link Authorizer#decide}, which names the deciding ACL, and {@link Authorizer#allows}.
 */
class StandardAuthorizerDifferentialTest {
    /** Not {@code User:*}: Kafka cannot decide for that principal (it throws building its principal set). */
    private static final List<String> REQUEST_PRINCIPALS = List.of("User:alice", "User:bob", "User:carol",
            "Group:ops", "Group:*");
    private static final List<String> REQUEST_HOSTS = List.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "0:0:0:0:0:0:0:1");

    record Request(String principal, String host, AclOperation operation, ResourceType type, String name) {
    }

    record Scenario(List<TestAcl> added, List<TestAcl> removed, Set<String> superUsers, boolean allowEveryone,
                    List<Request> requests) {
    }

    @Property(tries = 5000)
    void decidesEveryRequestAsKafkasStandardAuthorizer(@ForAll("scenarios") Scenario scenario) {
        AclsImage acls = TestAcl.image(scenario.added(), scenario.removed());
        AuthorizerSettings settings = new AuthorizerSettings(scenario.superUsers(), scenario.allowEveryone());
        try (KafkaAuthorizerOracle kafka = new KafkaAuthorizerOracle(scenario.superUsers(), scenario.allowEveryone(),
                scenario.added(), scenario.removed())) {
            for (Request r : scenario.requests()) {
                Decision ours = Authorizer.decide(acls, settings, r.principal(), r.host(), r.operation(), r.type(),
                        r.name());
                boolean kafkas = kafka.allowed(r.principal(), r.host(), r.operation(), r.type(), r.name());
                // The report after the run shows how often each rule decided: the ACL rules must not be rare.
                Statistics.label("deciding rule").collect(ours.rule(), ours.allowed() ? "ALLOWED" : "DENIED");
                assertEquals(kafkas, ours.allowed(), () -> "Kafka says " + (kafkas ? "ALLOWED" : "DENIED") + ", we say: "
                        + ours.explain());
                // The answer-only path reads the bits replay worked out instead of the entries: it must agree too.
                assertEquals(kafkas, Authorizer.allows(acls, settings, r.principal(), r.host(), r.operation(), r.type(),
                        r.name()), () -> "allows() differs from Kafka and from decide(): " + ours.explain());
                // A listing's walk reads the per-principal masks of the sorted patterns: the same again.
                assertEquals(kafkas, Authorizer.ascending(acls, settings, r.principal(), r.host(), r.operation(),
                        r.type()).allows(r.name()), () -> "a listing differs from Kafka: " + ours.explain());
            }
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<List<TestAcl>> acls = AclArbitraries.acls(30);
        Arbitrary<Long> removalMask = Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(0L)),
                Tuple.of(1, Arbitraries.longs()));
        Arbitrary<Set<String>> superUsers = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(Set.<String>of())),
                Tuple.of(1, Arbitraries.subsetOf("User:alice", "User:*", "Group:ops")));
        return Combinators.combine(acls, removalMask, superUsers, Arbitraries.of(false, true),
                request().list().ofMinSize(1).ofMaxSize(25)).as((added, mask, supers, everyone, requests) -> {
                    List<TestAcl> removed = new ArrayList<>();
                    for (int i = 0; i < added.size(); i++) {
                        if ((mask >>> i & 1) == 1) {
                            removed.add(added.get(i));
                        }
                    }
                    return new Scenario(added, removed, supers, everyone, requests);
                });
    }

    private static Arbitrary<Request> request() {
        Arbitrary<AclOperation> operations = Arbitraries.frequencyOf(Tuple.of(3, AclArbitraries.commonOperations()),
                Tuple.of(1, Arbitraries.of(AclOperation.values())));
        Arbitrary<ResourceType> types = Arbitraries.frequencyOf(Tuple.of(12, AclArbitraries.types()),
                Tuple.of(1, Arbitraries.just(ResourceType.UNKNOWN)));
        return Combinators.combine(Arbitraries.of(REQUEST_PRINCIPALS), Arbitraries.of(REQUEST_HOSTS), operations,
                types, AclArbitraries.names(0, 3)).as(Request::new);
    }
}
