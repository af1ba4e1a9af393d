package io.metaquorum.sim.system.workload;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.Authorizer;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import java.util.List;
import java.util.Random;

/**
 * The seeded ACL writes: CreateAcls and DeleteAcls over a fixed catalog of ACLs on the names
 * the topic workload uses ({@code topic-N}, {@code bad-N}, {@code dup-N}) and on the cluster,
 * LITERAL and PREFIXED, ALLOW and DENY, for alice, bob and {@code User:*}, from any host, the
 * caller's or one nobody calls from. The catalog is laid out so that alice's and bob's topic
 * calls are often allowed (a PREFIXED ALLOW of everything on {@code topic-} for
 * {@code User:*}, written first and often again) and often denied (DENYs, mostly PREFIXED, over
 * parts of it, and no ACL at all on a name while that ALLOW is deleted). Most writes are the
 * admin's (a super user); some are alice's or bob's, denied unless an ACL lets them ALTER the
 * cluster.
 *
 * <p>Deterministic: every choice comes from the given random source.
 */
public final class AclWorkload {
    /** One catalog entry: an ACL binding, in the API's codes. */
    record Entry(ResourceType type, String name, PatternType pattern, String principal, String host,
                 AclOperation operation, PermissionType permission) {
        AclCreation creation() {
            return AclCreation.newBuilder().setResourceType(type.code()).setResourceName(name)
                    .setPatternType(pattern.code()).setPrincipal(principal).setHost(host)
                    .setOperation(operation.code()).setPermissionType(permission.code()).build();
        }

        /** The filter that matches exactly this binding. */
        AclFilter exactFilter() {
            return AclFilter.newBuilder().setResourceType(type.code()).setResourceName(name)
                    .setPatternType(pattern.code()).setPrincipal(principal).setHost(host)
                    .setOperation(operation.code()).setPermissionType(permission.code()).build();
        }
    }

    private static final String ANY_HOST = "*";
    private static final String ALICE = SimCallers.ALICE.toString();
    private static final String BOB = SimCallers.BOB.toString();
    private static final String EVERYONE = "User:*";
    private static final String CLUSTER = Authorizer.CLUSTER_NAME;

    /** Entry 0 is the broad ALLOW most calls live by; the rest narrow or widen it. */
    static final List<Entry> CATALOG = List.of(
            topic("topic-", PatternType.PREFIXED, EVERYONE, ANY_HOST, AclOperation.ALL, PermissionType.ALLOW),
            topic("topic-1", PatternType.PREFIXED, BOB, ANY_HOST, AclOperation.ALL, PermissionType.DENY),
            topic("topic-", PatternType.PREFIXED, ALICE, ANY_HOST, AclOperation.DELETE, PermissionType.DENY),
            topic("topic-3", PatternType.LITERAL, ALICE, ANY_HOST, AclOperation.ALL, PermissionType.DENY),
            topic("*", PatternType.LITERAL, ALICE, ANY_HOST, AclOperation.DESCRIBE, PermissionType.ALLOW),
            topic("topic-2", PatternType.PREFIXED, EVERYONE, ANY_HOST, AclOperation.CREATE, PermissionType.DENY),
            topic("topic-", PatternType.PREFIXED, BOB, SimCallers.BOB_HOST, AclOperation.WRITE,
                    PermissionType.ALLOW),
            topic("top", PatternType.PREFIXED, ALICE, SimCallers.OTHER_HOST, AclOperation.ALL, PermissionType.DENY),
            topic("topic-", PatternType.PREFIXED, BOB, SimCallers.BOB_HOST, AclOperation.ALTER_CONFIGS,
                    PermissionType.DENY),
            topic("topic-5", PatternType.LITERAL, BOB, ANY_HOST, AclOperation.ALL, PermissionType.ALLOW),
            topic("topic-0", PatternType.PREFIXED, EVERYONE, SimCallers.ALICE_HOST, AclOperation.DESCRIBE,
                    PermissionType.DENY),
            topic("topic-1", PatternType.PREFIXED, ALICE, ANY_HOST, AclOperation.DESCRIBE_CONFIGS,
                    PermissionType.DENY),
            topic("topic-7", PatternType.LITERAL, EVERYONE, ANY_HOST, AclOperation.ALTER, PermissionType.ALLOW),
            topic("topic-1", PatternType.PREFIXED, EVERYONE, ANY_HOST, AclOperation.ALTER, PermissionType.DENY),
            topic("bad-", PatternType.PREFIXED, EVERYONE, ANY_HOST, AclOperation.CREATE, PermissionType.ALLOW),
            topic("dup-", PatternType.PREFIXED, ALICE, ANY_HOST, AclOperation.ALL, PermissionType.ALLOW),
            topic("topic-4", PatternType.PREFIXED, EVERYONE, ANY_HOST, AclOperation.ALL, PermissionType.DENY),
            topic("topic-6", PatternType.LITERAL, BOB, ANY_HOST, AclOperation.DESCRIBE, PermissionType.DENY),
            cluster(ALICE, AclOperation.CREATE, PermissionType.ALLOW),
            cluster(BOB, AclOperation.DELETE, PermissionType.ALLOW),
            cluster(EVERYONE, AclOperation.DESCRIBE, PermissionType.ALLOW),
            cluster(ALICE, AclOperation.ALTER, PermissionType.ALLOW),
            cluster(BOB, AclOperation.CREATE, PermissionType.DENY));

    private final Random random;
    private int drawn;

    public AclWorkload(Random random) {
        this.random = random;
    }

    private static Entry topic(String name, PatternType pattern, String principal, String host,
                               AclOperation operation, PermissionType permission) {
        return new Entry(ResourceType.TOPIC, name, pattern, principal, host, operation, permission);
    }

    private static Entry cluster(String principal, AclOperation operation, PermissionType permission) {
        return new Entry(ResourceType.CLUSTER, CLUSTER, PatternType.LITERAL, principal, ANY_HOST, operation,
                permission);
    }

    /**
     * The next write: the first creates the broad ALLOW and the cluster DESCRIBE; after that,
     * creates of one to three entries (the broad ALLOW among them a third of the time) and deletes
     * of one or two, or of all of one principal's ACLs.
     */
    public AclCall next() {
        Caller caller = caller();
        if (drawn++ == 0) {
            return new AclCall.Create(new Caller(SimCallers.ADMIN, SimCallers.ADMIN_HOST), CreateAclsRequest
                    .newBuilder().addCreations(CATALOG.get(0).creation()).addCreations(CATALOG.get(20).creation())
                    .build());
        }
        if (random.nextInt(100) < 55) {
            CreateAclsRequest.Builder create = CreateAclsRequest.newBuilder();
            if (random.nextInt(3) == 0) {
                create.addCreations(CATALOG.get(0).creation());
            }
            for (int n = 1 + random.nextInt(3); n > 0; n--) {
                create.addCreations(pick().creation());
            }
            return new AclCall.Create(caller, create.build());
        }
        DeleteAclsRequest.Builder delete = DeleteAclsRequest.newBuilder();
        if (random.nextInt(8) == 0) {
            Principal whose = random.nextBoolean() ? SimCallers.ALICE : SimCallers.BOB;
            delete.addFilters(AclFilter.newBuilder().setResourceType(ResourceType.ANY.code())
                    .setPatternType(PatternType.ANY.code()).setPrincipal(whose.toString())
                    .setOperation(AclOperation.ANY.code()).setPermissionType(PermissionType.ANY.code()));
        } else {
            for (int n = 1 + random.nextInt(2); n > 0; n--) {
                delete.addFilters(pick().exactFilter());
            }
        }
        return new AclCall.Delete(caller, delete.build());
    }

    private Entry pick() {
        return CATALOG.get(random.nextInt(CATALOG.size()));
    }

    /** Mostly the admin; alice or bob one write in five (denied unless an ACL lets them ALTER the cluster). */
    private Caller caller() {
        int pick = random.nextInt(10);
        return pick < 8 ? new Caller(SimCallers.ADMIN, SimCallers.ADMIN_HOST)
                : pick == 8 ? new Caller(SimCallers.ALICE, SimCallers.ALICE_HOST)
                : new Caller(SimCallers.BOB, SimCallers.BOB_HOST);
    }
}
