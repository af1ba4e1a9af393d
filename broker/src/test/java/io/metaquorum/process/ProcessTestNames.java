package io.metaquorum.process;

import java.lang.reflect.Method;
import org.junit.jupiter.api.TestInfo;

/** Names a test's cluster after the test, for its kept logs ({@code target/process-test-logs/NAME}). */
final class ProcessTestNames {
    private ProcessTestNames() {
    }

    static String of(TestInfo test) {
        return test.getTestClass().map(Class::getSimpleName).orElse("unknown") + "."
                + test.getTestMethod().map(Method::getName).orElse("unknown");
    }
}
