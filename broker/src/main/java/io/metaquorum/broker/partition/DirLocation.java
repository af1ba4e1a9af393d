package io.metaquorum.broker.partition;

/** An entry directly under a log dir: the index of the log dir in {@code log.dirs} and the entry's name. */
record DirLocation(int logDir, String name) implements Comparable<DirLocation> {
    @Override
    public int compareTo(DirLocation o) {
        int c = Integer.compare(logDir, o.logDir);
        return c != 0 ? c : name.compareTo(o.name);
    }
}
