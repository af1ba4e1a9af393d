package io.metaquorum.process;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One role change as the core logs it (docs/engineering-rules.md rule 15), e.g.
 * {@code [node 2] FOLLOWER epoch 3 -> PROSPECTIVE epoch 3 (leader -1)}.
 *
 * @param loggedAt the line's timestamp (see {@link LogTimestamps}); empty if it had none
 */
record RoleChange(int nodeId, String fromRole, int fromEpoch, String toRole, int toEpoch, int leaderId,
                  String loggedAt) {
    private static final Pattern LINE = Pattern.compile(
            "\\[node (\\d+)] ([A-Z]+) epoch (\\d+) -> ([A-Z]+) epoch (\\d+) \\(leader (-?\\d+)\\)");

    /** Every role change in {@code log}, in order. */
    static List<RoleChange> parse(String log) {
        List<RoleChange> changes = new ArrayList<>();
        for (String line : log.lines().toList()) {
            Matcher matcher = LINE.matcher(line);
            if (matcher.find()) {
                changes.add(new RoleChange(Integer.parseInt(matcher.group(1)), matcher.group(2),
                        Integer.parseInt(matcher.group(3)), matcher.group(4), Integer.parseInt(matcher.group(5)),
                        Integer.parseInt(matcher.group(6)), LogTimestamps.of(line).orElse("")));
            }
        }
        return changes;
    }

    boolean isFrom(String role, int epoch) {
        return fromRole.equals(role) && fromEpoch == epoch;
    }

    boolean isTo(String role, int epoch) {
        return toRole.equals(role) && toEpoch == epoch;
    }

    @Override
    public String toString() {
        return loggedAt + " [node " + nodeId + "] " + fromRole + " epoch " + fromEpoch + " -> " + toRole + " epoch " + toEpoch
                + " (leader " + leaderId + ")";
    }
}
