package io.metaquorum.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The tries of one {@code mq-bench failover} run and what it prints of them: a {@code #} note
 * per try as it is measured, and at the end one {@code name value unit} line per figure of
 * each mode that ran (medians; for the pause mode the maximum too, since one livelocked
 * election is what that mode looks for).
 */
final class FailoverFigures {
    private final List<Long> killNewLeaderMs = new ArrayList<>();
    private final List<Long> killFirstWriteMs = new ArrayList<>();
    private final List<Long> killCreateMs = new ArrayList<>();
    private final List<Long> handoffNewLeaderMs = new ArrayList<>();
    private final List<Long> pauseNewLeaderMs = new ArrayList<>();

    /** Records a kill -9 try; returns its note. */
    String addKill(long newLeaderMs, long firstWriteMs) {
        killNewLeaderMs.add(newLeaderMs);
        killFirstWriteMs.add(firstWriteMs);
        return String.format("# kill -9 try %d: new leader %d ms, first committed append %d ms",
                killNewLeaderMs.size(), newLeaderMs, firstWriteMs);
    }

    /** Records a kill -9 try followed by a CreateTopics; returns its note. */
    String addKillCreate(long createMs) {
        killCreateMs.add(createMs);
        return String.format("# kill -9 try %d: CreateTopics acknowledged %d ms after the kill", killCreateMs.size(),
                createMs);
    }

    /** Records a SIGTERM try; returns its note. */
    String addHandoff(long newLeaderMs) {
        handoffNewLeaderMs.add(newLeaderMs);
        return String.format("# SIGTERM try %d: new leader %d ms", handoffNewLeaderMs.size(), newLeaderMs);
    }

    /** Records a SIGSTOP try; returns its note. */
    String addPause(long newLeaderMs) {
        pauseNewLeaderMs.add(newLeaderMs);
        return String.format("# SIGSTOP try %d: new leader %d ms", pauseNewLeaderMs.size(), newLeaderMs);
    }

    /** The figure lines, in the order kill -9, SIGTERM, SIGSTOP, for the modes that have tries. */
    List<String> figureLines() {
        List<String> lines = new ArrayList<>();
        if (!killNewLeaderMs.isEmpty()) {
            lines.add("failover_new_leader_ms " + median(killNewLeaderMs) + " ms");
            lines.add("failover_first_write_ms " + median(killFirstWriteMs) + " ms");
        }
        if (!killCreateMs.isEmpty()) {
            lines.add("failover_create_ms " + median(killCreateMs) + " ms");
        }
        if (!handoffNewLeaderMs.isEmpty()) {
            lines.add("handoff_new_leader_ms " + median(handoffNewLeaderMs) + " ms");
        }
        if (!pauseNewLeaderMs.isEmpty()) {
            lines.add("pause_new_leader_ms " + median(pauseNewLeaderMs) + " ms");
            lines.add("pause_new_leader_max_ms " + max(pauseNewLeaderMs) + " ms");
        }
        return lines;
    }

    /** The middle value; of an even count, the upper of the two middle ones. */
    static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Long::compare);
        return sorted.get(sorted.size() / 2);
    }

    static long max(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().orElseThrow();
    }
}
