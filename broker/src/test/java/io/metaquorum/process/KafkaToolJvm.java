package io.metaquorum.process;

import io.metaquorum.process.MetaquorumScripts.ToolRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Kafka's tool classes (kafka-tools 4.4.0), each in a JVM of its own on this test's class
 * path, as an operator runs the script.
 */
final class KafkaToolJvm {
    private KafkaToolJvm() {
    }

    static ToolRun run(Path work, String name, String mainClass, List<String> args) {
        Path out = work.resolve(name + ".out");
        Path err = work.resolve(name + ".err");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(MetaquorumScripts.TEST_JVM_OPTS);
        command.addAll(List.of("-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                // As Kafka's scripts configure their logging: warnings only, on stderr.
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=System.err",
                mainClass));
        command.addAll(args);
        try {
            Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(mainClass + " " + args + " still runs after 120 s");
            }
            return new ToolRun(process.exitValue(), Files.readString(out), Files.readString(err));
        } catch (IOException e) {
            throw new AssertionError("cannot run " + mainClass, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
