package io.metaquorum.sim.system.workload;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.system.admin.AdminOutput;

/**
 * The answer to one item of an {@link AdminCall}: its code, and what the linearizability
 * history records of it (for a write, the code and topic id; for a read, what it saw).
 */
public record ItemResult(String item, ErrorCode code, AdminOutput output) {
}
