package io.metaquorum.server.status;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The status page ({@code GET /} on the metrics listener): one self-contained HTML file with
 * its script and styles inline, no external resource, that polls {@code /status.json} every
 * second and draws the quorum, the brokers, the counts, the recent leaders and a chart of the
 * commit latency. Every value is put into the page as text, never as markup.
 */
public final class StatusPage {
    private static final String RESOURCE = "status.html";

    private StatusPage() {
    }

    /** The page, read from the classpath. */
    public static String html() {
        try (InputStream in = StatusPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the status page " + RESOURCE + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the status page " + RESOURCE, e);
        }
    }
}
