package io.metaquorum.raft.core;

/** PLACEHOLDER: the pure safety rules (high watermark, vote granting), injected. */
public final class QuorumRules {
    public static final QuorumRules STANDARD = new QuorumRules();
}
