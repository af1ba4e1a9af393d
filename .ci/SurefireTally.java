import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads every Surefire report under the build ({@code <module>/target/surefire-reports/TEST-*.xml})
 * and fails (exit 1) when fewer tests ran than the floor, or when a test was skipped that the
 * allowed-skips file does not list, so the suite cannot quietly run less than it did.
 *
 * <p>Usage: {@code java .ci/SurefireTally.java ROOT FLOOR ALLOWED_SKIPS_FILE}. Run with the JDK's
 * single-file source launcher: it needs nothing but the JDK.
 */
public final class SurefireTally {
    private SurefireTally() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        int floor = Integer.parseInt(args[1]);
        Map<String, String> allowed = allowedSkips(Path.of(args[2]));
        int tests = 0;
        List<String> skipped = new ArrayList<>();
        for (Path report : reports(root)) {
            Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile())
                    .getDocumentElement();
            tests += Integer.parseInt(suite.getAttribute("tests"));
            NodeList cases = suite.getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element testCase = (Element) cases.item(i);
                if (testCase.getElementsByTagName("skipped").getLength() > 0) {
                    skipped.add(testCase.getAttribute("classname") + "#" + testCase.getAttribute("name"));
                }
            }
        }
        List<String> unexpected = skipped.stream()
                .filter(test -> !allowed.containsKey(test) && !allowed.containsKey(test.split("#", 2)[0])).toList();
        System.out.printf("tests run: %d (floor %d), skipped: %d (%d not on %s)%n", tests, floor, skipped.size(),
                unexpected.size(), args[2]);
        skipped.forEach(test -> System.out.println("  skipped: " + test));
        boolean failed = false;
        if (tests < floor) {
            System.out.println("FAIL: " + tests + " tests ran, fewer than the floor of " + floor);
            failed = true;
        }
        for (String test : unexpected) {
            System.out.println("FAIL: skipped, and not on the allowed list: " + test);
            failed = true;
        }
        System.exit(failed ? 1 : 0);
    }

    private static List<Path> reports(Path root) throws IOException {
        try (Stream<Path> modules = Files.list(root)) {
            List<Path> reports = new ArrayList<>();
            for (Path directory : modules.map(m -> m.resolve("target/surefire-reports")).filter(Files::isDirectory)
                    .toList()) {
                try (Stream<Path> files = Files.list(directory)) {
                    files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).sorted()
                            .forEach(reports::add);
                }
            }
            return reports;
        }
    }

    /** Entry (a class, or class#method) to its reason; blank lines and # comments skipped. */
    private static Map<String, String> allowedSkips(Path file) throws IOException {
        Map<String, String> allowed = new TreeMap<>();
        for (String line : Files.readAllLines(file)) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] entry = trimmed.split("\\s+", 2);
            if (entry.length < 2) {
                throw new IllegalArgumentException(file + ": no reason given for " + entry[0]);
            }
            allowed.put(entry[0], entry[1]);
        }
        return allowed;
    }
}
