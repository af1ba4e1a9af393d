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
 * <p>Racy by nature: a port free now may be taken by another process before the node binds
 * it. The ports of one base are held open together while probed, so at least they are all
 * free at one moment.
 */
final class PreassignedPorts {
    private static final int ATTEMPTS_MAX = 50;
    private static final int PORT_MAX = 65_535;

    private PreassignedPorts() {
    }

    /** A base whose next {@code count} ports (base + 1 to base + count) were all free on 127.0.0.1 just now. */
    static int freeBase(int count) {
        for (int attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
            int base;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                base = probe.getLocalPort() - 1;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (base + count <= PORT_MAX && allFree(base, count)) {
                return base;
            }
        }
        throw new IllegalStateException("no " + count + " free consecutive loopback ports found in " + ATTEMPTS_MAX
                + " attempts");
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
