package io.metaquorum.raft.transport.grpc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A loopback address where nothing listens, for as long as this is open: a TCP socket bound
 * to a port the system chose (port 0) that never listens, so every connection to it is
 * refused at once. It holds the port without {@code SO_REUSEADDR}, so no server can bind it
 * meanwhile. A port probed free and then released gives no such promise: another process may
 * take it before the test connects.
 */
public final class RefusingPort implements AutoCloseable {
    private final Socket socket;

    private RefusingPort(Socket socket) {
        this.socket = socket;
    }

    public static RefusingPort open() throws IOException {
        Socket socket = new Socket();
        try {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        return new RefusingPort(socket);
    }

    /** 127.0.0.1 and the held port. */
    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", socket.getLocalPort());
    }

    public int port() {
        return socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
