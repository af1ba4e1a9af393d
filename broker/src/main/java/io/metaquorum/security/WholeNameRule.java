package io.metaquorum.security;

import java.util.Optional;

/** {@code DEFAULT}: every subject is its own principal name, unchanged. */
record WholeNameRule() implements MappingRule {
    @Override
    public Optional<String> apply(String distinguishedName) {
        return Optional.of(distinguishedName);
    }

    @Override
    public String toString() {
        return "DEFAULT";
    }
}
