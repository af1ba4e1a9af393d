package io.metaquorum.metadata.log.rocksdb;

import java.util.List;

/**
 * What {@link DurabilityChecker} found in one trace: how many acknowledgements it judged, so a
 * trace that caught nothing cannot pass for a clean one, and each violation in trace order.
 */
record DurabilityReport(int offsetsAcknowledged, int snapshotsAcknowledged, List<String> violations) {
}
