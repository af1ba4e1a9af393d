package io.metaquorum.sim.system.workload;

import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.security.Caller;

/**
 * One SCRAM credential write of the workload ({@link ScramWorkload}), as the admin API's
 * request, with the caller that sends it. Like the ACL writes ({@link AclCall}), it stays out
 * of the topic history; its answers are judged by the controller's rules
 * ({@code ScramWriteCheck}) and by the authorization check.
 */
public record ScramCall(Caller caller, AlterUserScramCredentialsRequest request) {
}
