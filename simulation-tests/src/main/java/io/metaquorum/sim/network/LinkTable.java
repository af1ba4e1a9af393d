package io.metaquorum.sim.network;

import java.util.Arrays;

/**
 * The state of each directed link. Two ways a link can fail, deliberately distinct:
 * <ul>
 *   <li><b>black hole</b> ({@link #cut}): every message that would cross the link is dropped
 *       at delivery time, silently. TCP sees no reset, so a caller learns only through its
 *       deadline ({@code TIMEOUT}): a pulled cable, a firewall DROP rule, a lost route. Symmetric
 *       and one-way partitions are black holes.</li>
 *   <li><b>refused</b> ({@link #refuse}): a request the caller sends across the link fails fast
 *       with {@code UNREACHABLE} (a firewall REJECT, one-sided routing that answers with a
 *       reset); nothing crosses it either.</li>
 * </ul>
 *
 * A whole node can also be black-holed ({@link #blackHole(int)}, the {@code black-hole} fault),
 * a layer of its own: healing the partitions' links ({@link #healLinks}) leaves it in place.
 * So can a node's TLS certificate go bad ({@link #breakCertificate}, the {@code bad-certificate}
 * fault), a third layer: every handshake with the node fails, both ways, so a call from or to it
 * is refused as a {@code REFUSED} link refuses it (fast, {@code UNREACHABLE}), provided the path
 * is open both ways for the handshake to fail on; nothing crosses.
 *
 * <p>Invariant: a node is never cut from itself.
 */
public final class LinkTable {
    /** What a directed link does to what crosses it. */
    public enum LinkState { OPEN, BLACK_HOLE, REFUSED }

    private final LinkState[][] state;
    /** Nodes cut off silently from every other node, whatever their links say. */
    private final boolean[] blackHoled;
    /** Nodes whose certificate every peer rejects (and whose peers' certificates they reject). */
    private final boolean[] badCertificate;

    public LinkTable(int maxNodeId) {
        state = new LinkState[maxNodeId + 1][maxNodeId + 1];
        blackHoled = new boolean[maxNodeId + 1];
        badCertificate = new boolean[maxNodeId + 1];
        healAll();
    }

    /** Whether a message from {@code from} reaches {@code to} (no black hole, not refused, no failed handshake). */
    public boolean canSend(int from, int to) {
        return pathOpen(from, to) && !handshakeFails(from, to);
    }

    /** Whether packets get from {@code from} to {@code to} at all, whatever the certificates. */
    private boolean pathOpen(int from, int to) {
        return state[from][to] == LinkState.OPEN && (from == to || !blackHoled[from] && !blackHoled[to]);
    }

    /** Cuts {@code nodeId} off from every other node, silently, both ways, until {@link #restore}d. */
    public void blackHole(int nodeId) {
        blackHoled[nodeId] = true;
    }

    public void restore(int nodeId) {
        blackHoled[nodeId] = false;
    }

    public boolean isBlackHoled(int nodeId) {
        return blackHoled[nodeId];
    }

    /**
     * Whether a request from {@code from} to {@code to} is refused at once (fails fast with a
     * reset): the link refuses it, or the TLS handshake fails on a path open both ways (over a
     * black hole the handshake never completes either way, and the call times out).
     */
    public boolean refuses(int from, int to) {
        return state[from][to] == LinkState.REFUSED
                || handshakeFails(from, to) && pathOpen(from, to) && pathOpen(to, from);
    }

    /** The certificate of {@code nodeId} goes bad: every handshake with it fails, until {@link #fixCertificate}. */
    public void breakCertificate(int nodeId) {
        badCertificate[nodeId] = true;
    }

    /** A good certificate is in place again (rotation): handshakes with {@code nodeId} succeed. */
    public void fixCertificate(int nodeId) {
        badCertificate[nodeId] = false;
    }

    public boolean hasBadCertificate(int nodeId) {
        return badCertificate[nodeId];
    }

    /**
     * Whether a TLS handshake between {@code a} and {@code b} fails: either side's certificate is
     * bad (mutual TLS: each side checks the other's). Id 0 is never given a bad certificate, so a
     * caller from outside the cluster fails only on the node's.
     */
    public boolean handshakeFails(int a, int b) {
        return a != b && (badCertificate[a] || badCertificate[b]);
    }

    /** Makes the link from {@code from} to {@code to} a black hole: messages vanish, calls time out. */
    public void cut(int from, int to) {
        set(from, to, LinkState.BLACK_HOLE);
    }

    /** Black holes both ways. */
    public void cutBoth(int a, int b) {
        cut(a, b);
        cut(b, a);
    }

    /** Refuses calls from {@code from} to {@code to}: each fails fast with {@code UNREACHABLE}. */
    public void refuse(int from, int to) {
        set(from, to, LinkState.REFUSED);
    }

    private void set(int from, int to, LinkState newState) {
        if (from != to) {
            state[from][to] = newState;
        }
    }

    /** Heals every link (the partitions), leaving black-holed nodes as they are. */
    public void healLinks() {
        for (LinkState[] row : state) {
            Arrays.fill(row, LinkState.OPEN);
        }
    }

    /** Heals every link, restores every black-holed node and fixes every certificate. */
    public void healAll() {
        healLinks();
        Arrays.fill(blackHoled, false);
        Arrays.fill(badCertificate, false);
    }

    /** Failed directed links as "a->b" (black hole) and "a-x>b" (refused), for logs and the timeline. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        for (int from = 0; from < state.length; from++) {
            for (int to = 0; to < state.length; to++) {
                if (state[from][to] != LinkState.OPEN) {
                    text.append(text.length() == 0 ? "" : " ").append(from)
                            .append(state[from][to] == LinkState.REFUSED ? "-x>" : "->").append(to);
                }
            }
        }
        for (int node = 0; node < blackHoled.length; node++) {
            if (blackHoled[node]) {
                text.append(text.length() == 0 ? "" : " ").append(node).append(" black-holed");
            }
            if (badCertificate[node]) {
                text.append(text.length() == 0 ? "" : " ").append(node).append(" bad-certificate");
            }
        }
        return text.length() == 0 ? "healthy" : text.toString();
    }
}
