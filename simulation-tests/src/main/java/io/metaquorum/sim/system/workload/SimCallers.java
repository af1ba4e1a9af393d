package io.metaquorum.sim.system.workload;

import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import java.util.TreeSet;

/**
 * Who calls the simulated nodes, as their transport would tell them: the admin clients'
 * principals and hosts, and the nodes' own principals. The workload's admin ({@link #ADMIN})
 * and every node are in {@code super.users}, so the admin's calls and the nodes' traffic
 * (broker lifecycle, forwarding) never wait on an ACL; the others are decided by the ACLs the
 * workload writes ({@link AclWorkload}).
 *
 * <p>The hosts are addresses of the documentation range (RFC 5737): strings the ACLs and the
 * authorizer compare, never a destination (the simulated network has no addresses).
 */
public final class SimCallers {
    public static final Principal ADMIN = Principal.user("admin");
    public static final Principal ALICE = Principal.user("alice");
    public static final Principal BOB = Principal.user("bob");
    public static final String ADMIN_HOST = "192.0.2.10";
    public static final String ALICE_HOST = "192.0.2.11";
    public static final String BOB_HOST = "192.0.2.12";
    /** A host no client calls from: an ACL naming it never applies. */
    public static final String OTHER_HOST = "192.0.2.99";

    private SimCallers() {
    }

    /** Admin client {@code client}'s caller: 0 the admin, 1 alice, 2 bob, and round again. */
    public static Caller client(int client) {
        return switch (client % 3) {
            case 0 -> new Caller(ADMIN, ADMIN_HOST);
            case 1 -> new Caller(ALICE, ALICE_HOST);
            default -> new Caller(BOB, BOB_HOST);
        };
    }

    /** Node {@code nodeId}'s principal, as its certificate would map to. */
    public static Principal node(int nodeId) {
        return Principal.user("node-" + nodeId);
    }

    /** Node {@code nodeId} calling as itself (lifecycle calls). */
    public static Caller nodeCaller(int nodeId) {
        return new Caller(node(nodeId), "192.0.2." + (100 + nodeId));
    }

    /** The nodes' authorizer settings: the admin and nodes 1..maxNodeId super users; no ACL, no access. */
    public static AuthorizerSettings settings(int maxNodeId) {
        TreeSet<String> superUsers = new TreeSet<>();
        superUsers.add(ADMIN.toString());
        for (int id = 1; id <= maxNodeId; id++) {
            superUsers.add(node(id).toString());
        }
        return new AuthorizerSettings(superUsers, false);
    }
}
