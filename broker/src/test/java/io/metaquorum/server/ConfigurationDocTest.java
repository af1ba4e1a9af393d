package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md's table names every key {@link ConfigKeys} accepts, in its order (a
 * row may name several keys); the table is written by hand, so this keeps it from falling behind.
 */
class ConfigurationDocTest {
    @Test
    void theTableNamesEveryKeyInConfigKeysOrder() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "configuration.md"));
        List<String> missing = new ArrayList<>();
        List<String> documented = new ArrayList<>();
        for (String key : ConfigKeys.ALL.keySet()) {
            int at = doc.indexOf("| `" + key + "`");
            if (at < 0) {
                at = doc.indexOf(", `" + key + "`");
            }
            if (at < 0) {
                missing.add(key);
            } else {
                documented.add(rowOf(doc, at) + " " + key);
            }
        }
        assertEquals(List.of(), missing, "keys without a row in docs/configuration.md");
        List<String> inDocOrder = new ArrayList<>(documented);
        inDocOrder.sort((a, b) -> Long.compare(Long.parseLong(a.split(" ")[0]),
                Long.parseLong(b.split(" ")[0])));
        assertEquals(documented, inDocOrder, "docs/configuration.md's rows are not in ConfigKeys.ALL's order");
    }

    /** The line {@code at} is on: keys sharing a row may come in any order. */
    private static long rowOf(String doc, int at) {
        return doc.substring(0, at).chars().filter(c -> c == '\n').count();
    }
}
