package io.metaquorum.metadata.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellPathsTest {
    @Test
    void pathsResolveAgainstTheWorkingDirectory() {
        assertEquals(List.of("topics", "demo"), ShellPaths.resolve(List.of("topics"), "demo"));
        assertEquals(List.of("brokers"), ShellPaths.resolve(List.of("topics", "demo"), "../../brokers/."));
        assertEquals(List.of(), ShellPaths.resolve(List.of("topics"), "../../.."));
        assertEquals(List.of("acls"), ShellPaths.resolve(List.of("topics"), "/acls/"));
        assertEquals("/", ShellPaths.text(List.of()));
    }

    @Test
    void globsMatchOneSegment() {
        assertTrue(ShellPaths.globPattern("t*").matcher("topics").matches());
        assertFalse(ShellPaths.globPattern("t*").matcher("brokers").matches());
        assertTrue(ShellPaths.globPattern("[0-4]").matcher("3").matches());
        assertFalse(ShellPaths.globPattern("[!0]").matcher("0").matches());
        assertTrue(ShellPaths.globPattern("a.b?").matcher("a.bc").matches());
        assertFalse(ShellPaths.globPattern("a.b").matcher("axb").matches(), "a dot is literal");
    }

    @Test
    void wordsSplitOnWhitespaceAndQuotesGroup() {
        assertEquals(List.of("cat", "/topics/my topic/0", "x"), ShellPaths.words("cat \"/topics/my topic/0\"  x"));
        assertEquals(List.of("ls", ""), ShellPaths.words("ls ''"));
        assertEquals(List.of(), ShellPaths.words("   "));
    }
}
