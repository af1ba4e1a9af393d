package io.metaquorum.sim.network;

import java.util.Arrays;

/**
 * Which directed links are cut. A symmetric partition cuts both directions; a one-way
 * partition cuts one (for example a leader that can send but not receive). A cut link drops
 * every message that would cross it at delivery time, silently: TCP sees no reset, so the
 * sender learns only through its deadline.
 *
 * <p>Invariant: a node is never cut from itself.
 */
public final class LinkTable {
    private final boolean[][] cut;

    public LinkTable(int maxNodeId) {
        cut = new boolean[maxNodeId + 1][maxNodeId + 1];
    }

    public boolean canSend(int from, int to) {
        return !cut[from][to];
    }

    public void cut(int from, int to) {
        if (from != to) {
            cut[from][to] = true;
        }
    }

    public void cutBoth(int a, int b) {
        cut(a, b);
        cut(b, a);
    }

    public void healAll() {
        for (boolean[] row : cut) {
            Arrays.fill(row, false);
        }
    }

    /** Directed cut links as "a->b" pairs, for logs and the timeline. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        for (int from = 0; from < cut.length; from++) {
            for (int to = 0; to < cut.length; to++) {
                if (cut[from][to]) {
                    text.append(text.length() == 0 ? "" : " ").append(from).append("->").append(to);
                }
            }
        }
        return text.length() == 0 ? "healthy" : text.toString();
    }
}
