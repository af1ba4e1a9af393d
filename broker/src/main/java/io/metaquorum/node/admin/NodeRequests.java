package io.metaquorum.node.admin;

import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.controller.ControllerGateway;

/**
 * A node's request handlers, independent of any transport: the admin API and the broker
 * lifecycle RPCs, both over the node's gateway to its controller and image, authorized by the
 * node's {@link NodeAccess}.
 */
public record NodeRequests(AdminRequests admin, LifecycleRequests lifecycle) {
    public static NodeRequests create(ControllerGateway gateway, Forwarding forwarding, String clusterId,
                                      NodeAccess access) {
        ControllerCalls calls = new ControllerCalls(gateway, forwarding, access);
        return new NodeRequests(new AdminRequests(calls, clusterId), new LifecycleRequests(calls, clusterId));
    }
}
