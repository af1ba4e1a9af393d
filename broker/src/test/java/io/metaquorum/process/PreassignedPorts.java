package io.metaquorum.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Ports chosen before any node starts: the one place the process tests look for free ports.
 * Every other node listens on port 0 and reports the port it got in {@code server.listeners}
 * ({@link ControllerProcess#awaitStarted}).
 *
 * <p>Why voters cannot do the same: the controllers of a multi-voter quorum dial each other
 * at the addresses in {@code controller.quorum.voters}, which every voter needs before any
 * of them starts; until voters advertise their endpoints in the log, those ports are fixed in
 * advance. {@code bin/mq-quickstart} lays all six of its nodes out from one base port
 * ({@code MQ_BASE_PORT} + node id) for that reason, so its test takes its base here too, and
 * one for the metrics listeners ({@code MQ_METRICS_BASE_PORT}): left to its default,
 * {@code MQ_BASE_PORT} + 200, nothing checked those ports, and one was once taken.
 *
 * <p>Where they come from: below the kernel's ephemeral range (32768 and up on Linux), so that
 * no outgoing connection of this machine takes one between the probe and the bind, handed
 * out in turn, so two tests of one JVM never choose the same ports. Should the module's tests
 * ever run in several surefire forks at once, each takes a band of its own
 * ({@code mq.test.fork}, 1 or 2; 1 when unset). A port of the band that something else holds
 * is skipped: the ports of one base are held open together while probed, so they are all free
 * at one moment.
 */
final class PreassignedPorts {
    private static final int BAND_START = 20_000;
    private static final int BAND_PORTS = 6_000;
    private static final int FORKS_MAX = 2;
    private static final int ATTEMPTS_MAX = 200;
    private static final int BAND_FIRST = BAND_START + BAND_PORTS * (fork() - 1);
    private static int next = BAND_FIRST;

    private PreassignedPorts() {
    }

    /** This JVM's surefire fork number (1 when not set, as in a run from an IDE). */
    private static int fork() {
        String fork = System.getProperty("mq.test.fork", "1");
        try {
            int number = Integer.parseInt(fork.trim());
            return number >= 1 && number <= FORKS_MAX ? number : 1;
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** A base whose next {@code count} ports (base + 1 to base + count) were all free on 127.0.0.1 just now. */
    static synchronized int freeBase(int count) {
        for (int attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
            if (next + count >= BAND_FIRST + BAND_PORTS) {
                next = BAND_FIRST;
            }
            int base = next;
            next += count + 1;
            if (allFree(base, count)) {
                return base;
            }
        }
        throw new IllegalStateException("no " + count + " free consecutive loopback ports found in " + ATTEMPTS_MAX
                + " attempts in " + BAND_FIRST + ".." + (BAND_FIRST + BAND_PORTS - 1));
    }

    private static boolean allFree(int base, int count) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int port = base + 1; port <= base + count; port++) {
                held.add(new ServerSocket(port, 1, InetAddress.getLoopbackAddress()));
            }
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // Closing a probe socket cannot matter.
                }
            }
        }
    }
}
