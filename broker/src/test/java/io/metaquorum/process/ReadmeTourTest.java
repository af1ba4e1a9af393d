package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ReadmeTour}'s reading of the block and its rewrite, without running anything. */
class ReadmeTourTest {
    private static final Path DATA = Path.of("/tmp/t/data");
    private static final Path TIMELINE = Path.of("/tmp/t/run.html");

    @TempDir
    Path work;

    @Test
    void theBlockUnderTheHeadingWithoutCommentsOrBlankLines() throws Exception {
        Path readme = Files.writeString(work.resolve("README.md"), String.join("\n", "# x", "```sh", "not this", "```",
                "## A tour", "", "```sh", "bin/mq-quickstart          # starts", "", "leader=$(a | b)", "```",
                "bin/after", "## Next", ""));
        assertEquals(List.of("bin/mq-quickstart", "leader=$(a | b)"), ReadmeTour.commands(readme));
    }

    @Test
    void portsMoveToTheBaseAndPathsToTheTestsDirectories() {
        assertEquals("bin/mq-topics --bootstrap-server 127.0.0.1:40004 --describe",
                ReadmeTour.rewrite("bin/mq-topics --bootstrap-server 127.0.0.1:19094 --describe", 40_000, DATA, TIMELINE));
        assertEquals("q --bootstrap-controller 127.0.0.1:$((40000 + leader % 3 + 1))",
                ReadmeTour.rewrite("q --bootstrap-controller 127.0.0.1:1909$((leader % 3 + 1))", 40_000, DATA, TIMELINE));
        assertEquals("q 127.0.0.1:40001,127.0.0.1:40002",
                ReadmeTour.rewrite("q 127.0.0.1:19091,127.0.0.1:19092", 40_000, DATA, TIMELINE));
        assertEquals("kill -9 \"$(cat /tmp/t/data/node-$leader/server.pid)\" && sim --timeline /tmp/t/run.html",
                ReadmeTour.rewrite("kill -9 \"$(cat quickstart-data/node-$leader/server.pid)\" && sim --timeline run.html",
                        40_000, DATA, TIMELINE));
        assertFalse(ReadmeTour.rewrite("bin/mq-quickstart", 19_090, DATA, TIMELINE).contains("1909"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"t --bootstrap-server 127.0.0.1:9092", "t --bootstrap-server localhost:19094",
        "t --bootstrap-server 127.0.0.1:19094X", "t --port 19094", "t 127.0.0.1:$((19090 + leader))",
        "MQ_BASE_PORT=20000 bin/mq-quickstart", "t --bootstrap-server 127.0.0.1:1909$((leader + (1)))"})
    void anAddressOrPortItDoesNotKnowFails(String command) {
        assertThrows(AssertionError.class, () -> ReadmeTour.rewrite(command, 40_000, DATA, TIMELINE));
    }
}
