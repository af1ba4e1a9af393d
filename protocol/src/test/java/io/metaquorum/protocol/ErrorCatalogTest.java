package io.metaquorum.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The error catalog (docs/architecture.md §8): every code has a handling class, and docs/admin-api.md prints the table. */
class ErrorCatalogTest {

    static ErrorClass handling(ErrorCode code) {
        return code.getValueDescriptor().getOptions().getExtension(ErrorsProto.handling);
    }

    private static List<ErrorCode> codes() {
        return Arrays.stream(ErrorCode.values()).filter(c -> c != ErrorCode.UNRECOGNIZED).toList();
    }

    @Test
    void everyErrorHasAHandlingClassAndOnlyNoneHasNone() {
        for (ErrorCode code : codes()) {
            if (code == ErrorCode.NONE) {
                assertEquals(ErrorClass.ERROR_CLASS_NONE, handling(code));
            } else {
                assertNotEquals(ErrorClass.ERROR_CLASS_NONE, handling(code), code + " has no handling class");
            }
        }
    }

    @Test
    void theClassesDesignNamesAreThere() {
        for (ErrorCode code : List.of(ErrorCode.NOT_CONTROLLER, ErrorCode.NOT_LEADER_OR_FOLLOWER,
                ErrorCode.UNKNOWN_LEADER_EPOCH)) {
            assertEquals(ErrorClass.REFRESH_AND_RETRY, handling(code), code.name());
        }
        for (ErrorCode code : List.of(ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.STALE_BROKER_EPOCH)) {
            assertEquals(ErrorClass.APPLICATION_RECOVERABLE, handling(code), code.name());
        }
        for (ErrorCode code : List.of(ErrorCode.INVALID_CONFIG, ErrorCode.INVALID_PARTITIONS,
                ErrorCode.INVALID_REPLICATION_FACTOR, ErrorCode.TOPIC_ALREADY_EXISTS, ErrorCode.INVALID_REQUEST)) {
            assertEquals(ErrorClass.INVALID_REQUEST_CLASS, handling(code), code.name());
        }
        for (ErrorCode code : List.of(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, ErrorCode.TOPIC_AUTHORIZATION_FAILED)) {
            assertEquals(ErrorClass.AUTHORIZATION, handling(code), code.name());
        }
        for (ErrorCode code : List.of(ErrorCode.INCONSISTENT_CLUSTER_ID, ErrorCode.CORRUPT_MESSAGE)) {
            assertEquals(ErrorClass.FATAL, handling(code), code.name());
        }
    }

    @Test
    void codesAreUnique() {
        Set<Integer> numbers = new HashSet<>();
        for (ErrorCode code : codes()) {
            assertTrue(numbers.add(code.getNumber()), "duplicate code " + code.getNumber());
        }
    }

    @Test
    void theReadmePrintsEveryRowOfTheCatalog() throws IOException {
        String readme = Files.readString(Path.of("..", "docs", "admin-api.md"));
        for (ErrorCode code : codes()) {
            String row = "| " + code.getNumber() + " | `" + code.name() + "` | " + printed(handling(code)) + " |";
            assertTrue(readme.contains(row), "docs/admin-api.md lacks the row: " + row);
        }
    }

    /** The class as docs/admin-api.md prints it. */
    static String printed(ErrorClass handling) {
        return handling == ErrorClass.INVALID_REQUEST_CLASS ? "INVALID_REQUEST"
                : handling == ErrorClass.ERROR_CLASS_NONE ? "—" : handling.name();
    }
}
