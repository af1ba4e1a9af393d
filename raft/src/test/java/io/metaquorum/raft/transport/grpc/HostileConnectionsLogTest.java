package io.metaquorum.raft.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.transport.grpc.logging.CapturedStderr;
import io.metaquorum.raft.transport.grpc.logging.JulRecordsAtRoot;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * 200 connections that send random bytes to a plaintext port: before the refused-connection
 * log and the JUL bridge, gRPC wrote 25 lines for each (5001 lines); now they are a few.
 */
class HostileConnectionsLogTest {
    private static final int CONNECTIONS = 200;
    private static final int GARBAGE_BYTES = 64;
    /** Generous: only a server that never closes the connection reaches it. */
    private static final int READ_TIMEOUT_MS = 30_000;
    /**
     * The bound on lines: one refused-connection WARN and one bridged gRPC "Transport failed"
     * line, each possibly once more with its count if the run crosses the 10 s interval.
     */
    private static final int LINES_MAX = 4;
    private static final Pattern SUPPRESSED = Pattern.compile("\\(and (\\d+) more like it in the last \\d+ s\\)$");

    @Test
    void twoHundredGarbageConnectionsLeaveAFewLinesEachNamingThePeerAndNoStackTrace() throws IOException {
        List<String> lines;
        List<String> atJulRoot;
        try (CapturedStderr err = new CapturedStderr(); JulRecordsAtRoot julRoot = new JulRecordsAtRoot()) {
            RaftGrpcServer server = RaftGrpcServer.start(2, List.of(new InetSocketAddress("127.0.0.1", 0)), List.of(),
                    GrpcConnectionSettings.DEFAULTS);
            try {
                sendGarbageUntilClosed(server.boundAddresses().get(0), new Random(20261202));
            } finally {
                // Returns once the server's event loops have ended, so every close has been logged.
                server.close(() -> { });
            }
            lines = err.lines().stream().filter(line -> !line.contains("serving Raft on")).toList();
            atJulRoot = julRoot.grpcRecords();
        }

        List<String> warnings = RefusedConnectionLines.warnings(lines);
        assertFalse(warnings.isEmpty(), "no refused-connection line in:\n" + String.join("\n", lines));
        assertTrue(lines.size() <= LINES_MAX, lines.size() + " lines:\n" + String.join("\n", lines));
        RefusedConnectionLines.assertEachNamesALoopbackPeerAnd("not HTTP/2 (garbage or an HTTP/1 client)", warnings);
        RefusedConnectionLines.assertNoStackTrace(lines);
        assertEquals(List.of(), atJulRoot, "gRPC records reached the JUL console");
        long reported = warnings.stream().mapToLong(HostileConnectionsLogTest::connectionsIn).sum();
        assertTrue(reported <= CONNECTIONS, "reported " + reported + " refused connections of " + CONNECTIONS);
    }

    /** Each connection writes garbage and reads until the server closes it (EOF or a reset). */
    private static void sendGarbageUntilClosed(InetSocketAddress address, Random random) throws IOException {
        byte[] garbage = new byte[GARBAGE_BYTES];
        for (int i = 0; i < CONNECTIONS; i++) {
            random.nextBytes(garbage);
            try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
                socket.setSoTimeout(READ_TIMEOUT_MS);
                socket.getOutputStream().write(garbage);
                readUntilClosed(socket.getInputStream());
            }
        }
    }

    private static void readUntilClosed(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // the server's GOAWAY, if any
            }
        } catch (SocketException reset) {
            // The server closed with our bytes unread: a reset is a close too.
        }
    }

    /** One for the line itself plus the ones it says were left out. */
    private static long connectionsIn(String warning) {
        Matcher matcher = SUPPRESSED.matcher(warning);
        return 1 + (matcher.find() ? Long.parseLong(matcher.group(1)) : 0);
    }
}
