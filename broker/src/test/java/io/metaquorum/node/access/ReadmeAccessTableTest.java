package io.metaquorum.node.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README prints {@link RpcAccessTable} as {@link RpcAccessTable#markdown()} renders it,
 * between two marker comments. When the table changes, this fails and writes the new text to
 * {@code broker/target/rpc-access-table.md} to paste between the markers.
 */
class ReadmeAccessTableTest {
    static final String BEGIN = "<!-- rpc-access-table: generated from RpcAccessTable, do not edit -->\n";
    static final String END = "<!-- rpc-access-table: end -->";

    @Test
    void theReadmePrintsTheTableTheCodeHolds() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        String printed = begin < 0 || end < begin ? "" : readme.substring(begin + BEGIN.length(), end);
        String expected = RpcAccessTable.markdown();
        if (!expected.equals(printed)) {
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target", "rpc-access-table.md"), BEGIN + expected + END + "\n");
        }
        assertEquals(expected, printed, "README.md's RPC table is not RpcAccessTable's: paste "
                + "broker/target/rpc-access-table.md between the markers");
    }
}
