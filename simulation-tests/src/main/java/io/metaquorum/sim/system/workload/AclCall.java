package io.metaquorum.sim.system.workload;

import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.security.Caller;

/**
 * One ACL write of the workload ({@link AclWorkload}), as the admin API's request, with the
 * caller that sends it. ACL writes are not topic operations: they stay out of the topic
 * history and its reference model; what they change is judged through every later decision
 * ({@code AuthorizationCheck}).
 */
public sealed interface AclCall {
    Caller caller();

    record Create(Caller caller, CreateAclsRequest request) implements AclCall {
    }

    record Delete(Caller caller, DeleteAclsRequest request) implements AclCall {
    }
}
