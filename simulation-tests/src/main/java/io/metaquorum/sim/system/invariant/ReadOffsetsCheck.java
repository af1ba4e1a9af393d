package io.metaquorum.sim.system.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.workload.AdminAnswer;
import io.metaquorum.sim.system.workload.ItemResult;
import java.util.TreeMap;

/**
 * One client reading from one node incarnation never sees the metadata offset go back: a
 * node serves reads from its committed image, which only moves forward within a process.
 * Reads are not linearizable across nodes (they may lag), so this is what is judged of them
 * beside {@code image-equals-replay}.
 */
public final class ReadOffsetsCheck {
    public static final String NAME = "admin-read-offsets-monotonic";

    /** Per client and "node/incarnation": the highest read offset answered. */
    private final TreeMap<String, Long> readOffsets = new TreeMap<>();

    /** An answer client {@code client} got from {@code node} ("id/incarnation"). */
    public void observe(int client, String node, AdminAnswer answer) {
        for (ItemResult item : answer.items()) {
            long offset = item.output() instanceof AdminOutput.Described d ? d.offset()
                    : item.output() instanceof AdminOutput.Listed l ? l.offset() : -1;
            if (offset < 0) {
                continue;
            }
            String key = client + "@" + node;
            Long before = readOffsets.put(key, Math.max(offset, readOffsets.getOrDefault(key, -1L)));
            if (before != null && offset < before) {
                throw new CheckFailure(NAME, "client " + client + " read offset " + offset + " from node "
                        + node + " after reading offset " + before + " from it");
            }
        }
    }
}
