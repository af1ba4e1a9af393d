package io.metaquorum.sim.system.workload;

/**
 * What the reference model knows of one topic name. A name becomes {@link #UNSURE} for good
 * once an operation on it was ambiguous (it may still take effect, at any later time) or two
 * operations on it overlapped (their order is the cluster's to choose); from then on only the
 * linearizability checker judges what was answered about it.
 */
enum NameKnowledge {
    ABSENT,
    PRESENT,
    UNSURE
}
