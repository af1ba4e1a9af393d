package io.metaquorum.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return new SimulateCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).execute(args);
    }

    private List<String> lines() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void helpNamesEveryFlag() {
        assertEquals(0, run("--help"));
        String help = out.toString(StandardCharsets.UTF_8);
        for (String flag : new String[] {"--seed", "--seeds", "--base-seed", "--events", "--faults", "--nodes",
                "--observers", "--system", "--timeline"}) {
            assertTrue(help.contains(flag), flag);
        }
    }

    @Test
    void aBadArgumentIsOneLineOnStderrAndStatusTwo() {
        assertEquals(2, run("--seeds", "many"));
        assertEquals("mq-simulate: --seeds takes a number, got 'many'", err.toString(StandardCharsets.UTF_8).trim());
        assertEquals(2, run("--faults", "meteor"));
    }

    @Test
    void aRunPrintsItsSeedLineAndTheTally() {
        assertEquals(0, run("--seed", "3", "--events", "2000", "--faults", "none"));
        List<String> lines = lines();
        assertTrue(lines.get(0).matches("seed 3 events \\d+ trace [0-9a-f]{16}"), lines.get(0));
        assertTrue(lines.get(lines.size() - 2).matches("simulated \\d+ events and .* events/s, .* simulated s per wall s"),
                lines.get(lines.size() - 2));
        assertEquals("1 passed, 0 failed", lines.get(lines.size() - 1));
    }

    @Test
    void aFailurePrintsTheInvariantTheEventAndTheReplayCommand() {
        assertEquals(1, run("--seed", "1", "--events", "3000", "--faults", "none", "--broken", "ack-before-sync"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("FAILED seed 1 at event "), text);
        assertTrue(text.contains("high-watermark-on-majority"), text);
        assertTrue(text.contains("replay: bin/mq-simulate --seed 1 --events 3000 --faults none --nodes 3 --observers 2"
                + " --broken ack-before-sync"), text);
        assertEquals("0 passed, 1 failed", lines().get(lines().size() - 1));
    }

    /** A variant that breaks a rule of the raft core runs in its mutant world, here through the command line. */
    @Test
    void aBrokenCoreRuleRunsWithItsMutationAndIsCaught() {
        assertEquals(1, run("--seed", "1", "--events", "3000", "--broken", "pre-vote-bumps-epoch"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("epoch-campaigned: node 3 entered epoch 1 as UNATTACHED"), text);
        assertTrue(text.contains("replay: bin/mq-simulate --seed 1 --events 3000 --faults all --nodes 3 --observers 2"
                + " --broken pre-vote-bumps-epoch"), text);
        assertEquals(0, run("--seed", "1", "--events", "3000"), "the same run with the production rule passes");
    }

    @Test
    void severalSeedsAndATimeline(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.html");
        assertEquals(0, run("--seeds", "2", "--base-seed", "10", "--events", "1500", "--faults", "none",
                "--timeline", file.toString()));
        List<String> lines = lines();
        assertTrue(lines.get(0).startsWith("seed 10 events "));
        assertTrue(lines.get(1).startsWith("seed 11 events "));
        assertTrue(Files.readString(file).contains("<svg"));
        assertEquals("2 passed, 0 failed", lines.get(lines.size() - 1));
    }

    @Test
    void aSystemRunPrintsItsSeedLineAndTheSystemSummary() {
        assertEquals(0, run("--system", "--seed", "2", "--events", "4000", "--faults", "none"));
        List<String> lines = lines();
        assertTrue(lines.get(0).matches("seed 2 events \\d+ trace [0-9a-f]{16}"), lines.get(0));
        assertTrue(lines.get(lines.size() - 2).matches("system: \\d+ admin calls finished, .* leader epochs; \\d+ answer entries judged for authorization, \\d+ of them denied"),
                lines.get(lines.size() - 2));
        assertEquals("1 passed, 0 failed", lines.get(lines.size() - 1));
    }

    @Test
    void aVariantOfTheOtherLayerIsRefused() {
        assertEquals(2, run("--broken", "reply-before-commit"));
        assertEquals("mq-simulate: --broken reply-before-commit breaks the system layer: add --system",
                err.toString(StandardCharsets.UTF_8).trim());
        assertEquals(2, run("--system", "--broken", "ack-before-sync"));
    }
}
