package io.metaquorum.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One traced create as the client saw it: its own time and the trace the node sent back
 * ({@code node=4 handle_us=41 forward_us=2310 reply_us=35 total_us=2391; node=1 queue_us=12 ...},
 * the node the client called first, then the controller it forwarded to), turned into the
 * stages of {@link #stages()}. The network between two nodes is what one node's wait for the
 * other leaves when the other's own total is taken out.
 *
 * @param hops the trace's hops, each its node and durations in microseconds
 */
record CreateTrace(long clientMicros, List<Map<String, Long>> hops) {
    /** Parses the trace trailer; a malformed one throws {@link IllegalArgumentException} naming it. */
    static CreateTrace parse(long clientMicros, String trace) {
        List<Map<String, Long>> hops = new ArrayList<>();
        for (String hop : trace.split(";")) {
            Map<String, Long> fields = new LinkedHashMap<>();
            for (String field : hop.trim().split(" ")) {
                int eq = field.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("malformed trace field '" + field + "' in '" + trace + "'");
                }
                try {
                    fields.put(field.substring(0, eq), Long.parseLong(field.substring(eq + 1)));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("malformed trace field '" + field + "' in '" + trace + "'", e);
                }
            }
            if (!fields.containsKey("node") || !fields.containsKey("total_us")) {
                throw new IllegalArgumentException("trace hop without node or total_us: '" + hop + "'");
            }
            hops.add(fields);
        }
        return new CreateTrace(clientMicros, List.copyOf(hops));
    }

    /** Whether the node called first forwarded the create to the active controller. */
    boolean forwarded() {
        return hops.size() > 1;
    }

    /** The node that ran the create. */
    long controllerId() {
        return hops.get(hops.size() - 1).get("node");
    }

    /**
     * The stages in the order the create passes them, in microseconds; stages the trace has no
     * figure for are left out (a create the node the client called ran itself has no forward).
     */
    LinkedHashMap<String, Long> stages() {
        Map<String, Long> entry = hops.get(0);
        Map<String, Long> controller = hops.get(hops.size() - 1);
        LinkedHashMap<String, Long> stages = new LinkedHashMap<>();
        stages.put("client_network", clientMicros - entry.get("total_us"));
        if (forwarded()) {
            put(stages, "entry_handle", entry, "handle_us");
            if (entry.containsKey("forward_us")) {
                stages.put("forward_network", entry.get("forward_us") - controller.get("total_us"));
            }
        }
        put(stages, "controller_edge", controller, "edge_us");
        put(stages, "controller_queue", controller, "queue_us");
        put(stages, "controller_decide", controller, "decide_us");
        put(stages, "raft_queue", controller, "raft_queue_us");
        put(stages, "raft_commit", controller, "replicate_us");
        put(stages, "loader_replay", controller, "load_us");
        put(stages, "controller_answer", controller, "answer_us");
        put(stages, "controller_reply", controller, "reply_us");
        if (forwarded()) {
            put(stages, "entry_reply", entry, "reply_us");
        }
        stages.put("total", clientMicros);
        return stages;
    }

    private static void put(Map<String, Long> stages, String stage, Map<String, Long> hop, String field) {
        Long micros = hop.get(field);
        if (micros != null) {
            stages.put(stage, micros);
        }
    }
}
