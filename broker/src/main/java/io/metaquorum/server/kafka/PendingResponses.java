package io.metaquorum.server.kafka;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * One connection's requests that await or hold their answer, in the order they came: Kafka's
 * clients match responses to requests by order as much as by correlation id, so a response
 * goes out only after every earlier one, however the handlers finish. A slot is reserved
 * when a request is read; its handler fills it once, on any thread; the connection's event
 * loop takes the filled ones from the head ({@link #takeReady()}).
 *
 * <p>Thread use: {@link #reserve}, {@link #takeReady} and {@link #size} on the event loop
 * only; {@link Slot#fill} from any thread.
 */
final class PendingResponses {
    private final ArrayDeque<Slot> slots = new ArrayDeque<>();

    /** Where one request's answer goes, with what its frame needs to be written. */
    static final class Slot {
        private final ApiKeys apiKey;
        private final short apiVersion;
        private final int correlationId;
        private final AtomicReference<AbstractResponse> response = new AtomicReference<>();

        Slot(ApiKeys apiKey, short apiVersion, int correlationId) {
            this.apiKey = apiKey;
            this.apiVersion = apiVersion;
            this.correlationId = correlationId;
        }

        /** Sets the answer; false (and no change) when it was set already. */
        boolean fill(AbstractResponse answer) {
            return response.compareAndSet(null, answer);
        }

        boolean filled() {
            return response.get() != null;
        }

        ApiKeys apiKey() {
            return apiKey;
        }

        short apiVersion() {
            return apiVersion;
        }

        int correlationId() {
            return correlationId;
        }

        AbstractResponse response() {
            return response.get();
        }

        @Override
        public String toString() {
            return apiKey + " v" + apiVersion + " correlation id " + correlationId;
        }
    }

    /** A slot for the request just read, behind every earlier one. */
    Slot reserve(ApiKeys apiKey, short apiVersion, int correlationId) {
        Slot slot = new Slot(apiKey, apiVersion, correlationId);
        slots.addLast(slot);
        return slot;
    }

    /** The filled slots at the head, in request order, removed; stops at the first unfilled one. */
    List<Slot> takeReady() {
        List<Slot> ready = new ArrayList<>();
        while (!slots.isEmpty() && slots.peekFirst().filled()) {
            ready.add(slots.pollFirst());
        }
        return ready;
    }

    /** Requests read and not yet written out. */
    int size() {
        return slots.size();
    }
}
