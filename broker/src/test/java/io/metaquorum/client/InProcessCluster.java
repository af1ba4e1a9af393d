package io.metaquorum.client;

import io.metaquorum.retry.AdminOptions;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.metaquorum.client.grpc.GrpcAdminTransport;
import io.metaquorum.common.time.Time;
import io.metaquorum.net.HostPort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * In-process gRPC servers, one per scripted node, addressed as {@code HostPort(name, n)};
 * a client built here reaches them through the real {@link GrpcAdminTransport} and waits on a
 * manual clock (a sleep only moves the clock on).
 */
public final class InProcessCluster implements AutoCloseable {
    private final String prefix = "admin-" + UUID.randomUUID() + "-";
    private final List<Server> servers = new ArrayList<>();
    public final ManualTime time = new ManualTime();
    public final List<Long> sleepsMs = new ArrayList<>();

    /** A node serving {@code service}; {@code null}: a node serving no AdminService at all. */
    public HostPort node(int id, ScriptedAdminService service) {
        InProcessServerBuilder builder = InProcessServerBuilder.forName(prefix + id).directExecutor();
        if (service != null) {
            builder.addService(service.recordingHeaders());
        }
        try {
            servers.add(builder.build().start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return address(id);
    }

    /** An address nothing listens on. */
    public HostPort address(int id) {
        return new HostPort(prefix + id, id);
    }

    public AdminClient client(List<HostPort> bootstrap) {
        return client(bootstrap, Map.of());
    }

    public AdminClient client(List<HostPort> bootstrap, Map<Integer, HostPort> nodeAddresses) {
        GrpcAdminTransport transport = new GrpcAdminTransport(
                node -> InProcessChannelBuilder.forName(node.host()).directExecutor().build());
        return new AdminClient(transport, bootstrap, new LinkedHashMap<>(nodeAddresses), AdminOptions.DEFAULT, time,
                ms -> {
                    sleepsMs.add(ms);
                    time.nowMs += ms;
                });
    }

    @Override
    public void close() {
        servers.forEach(Server::shutdownNow);
    }

    public static final class ManualTime implements Time {
        long nowMs = 1_000_000;

        @Override
        public long milliseconds() {
            return nowMs;
        }

        @Override
        public long nanoseconds() {
            return nowMs * 1_000_000;
        }
    }
}
