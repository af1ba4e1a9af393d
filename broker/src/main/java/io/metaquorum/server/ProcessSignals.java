package io.metaquorum.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * Freezes and thaws a process by its pid: {@code kill -STOP PID} and {@code kill -CONT PID}
 * ({@link ProcessHandle} sends only SIGTERM and SIGKILL). A stopped process keeps its
 * sockets open and answers nothing, so its peers see no connection reset, unlike after a
 * kill -9. Used by {@code mq-bench failover --mode pause} and by the multi-process tests;
 * whoever stops a process must continue it before anything else is done with it.
 */
public final class ProcessSignals {
    /** Bound of the wait for {@code kill} itself to exit. */
    private static final long KILL_COMMAND_WAIT_MS = 10_000;

    private ProcessSignals() {
    }

    /** SIGSTOP to {@code pid}; throws if kill does not exit 0 (no such process, not ours). */
    public static void stop(long pid) {
        send("-STOP", pid);
    }

    /** SIGCONT to {@code pid}; throws if kill does not exit 0. */
    public static void resume(long pid) {
        send("-CONT", pid);
    }

    private static void send(String signal, long pid) {
        if (pid <= 0) {
            throw new IllegalArgumentException("not a process id: " + pid);
        }
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(pid))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(KILL_COMMAND_WAIT_MS, TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill " + signal + " " + pid + " did not return within "
                        + KILL_COMMAND_WAIT_MS + " ms");
            }
            if (kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + pid + " exited " + kill.exitValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill " + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + signal + " to " + pid, e);
        }
    }
}
