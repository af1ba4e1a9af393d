package io.metaquorum.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * JVM child processes of a benchmark: started with this JVM's java and classpath, their
 * output lines collected, and every one of them destroyed (by its pid) on close.
 */
final class ChildProcesses implements AutoCloseable {
    private static final long STOP_GRACE_MS = 5_000;

    private final List<Process> processes = new ArrayList<>();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    Process start(String mainClass, List<String> jvmOptions, List<String> args, Path logFile) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
            processes.add(process);
            Thread reader = new Thread(() -> pump(process), "bench-output-" + process.pid());
            reader.setDaemon(true);
            reader.start();
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + mainClass, e);
        }
    }

    private void pump(Process process) {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // The process ended; its output stops here.
        }
    }

    BlockingQueue<String> lines() {
        return lines;
    }

    /**
     * Stops every child: SIGTERM first, so each JVM runs its exit hooks (RocksDB's JNI
     * library, extracted to the temporary directory, is deleted by one; a kill -9 leaves
     * 15 MB behind per process), then SIGKILL for any still running after a grace period.
     */
    @Override
    public void close() {
        for (Process process : processes) {
            process.destroy();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_GRACE_MS);
        for (Process process : processes) {
            try {
                long left = deadline - System.nanoTime();
                if (!process.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly();
                    process.waitFor();
                }
            } catch (InterruptedException e) {
                processes.forEach(Process::destroyForcibly);
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Ports free on 127.0.0.1 right now (bound, then released). */
    static List<Integer> freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                socket.bind(new InetSocketAddress("127.0.0.1", 0));
                sockets.add(socket);
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // Released either way.
                }
            }
        }
    }
}
