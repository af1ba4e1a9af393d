package io.metaquorum.bench;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Which leader failures {@code mq-bench failover} measures ({@code --mode}), run in this order:
 * kill -9, SIGTERM, SIGSTOP. Without {@code --mode} it measures kill -9 and then SIGTERM, as
 * it did before the pause mode existed, so its default output is unchanged.
 */
record FailoverModes(boolean kill, boolean term, boolean pause) {
    static final String NAMES = "kill, term, pause, all";
    static final FailoverModes DEFAULT = new FailoverModes(true, true, false);

    /** {@code kill}, {@code term}, {@code pause} or {@code all}. */
    static FailoverModes parse(String name) {
        return switch (name) {
            case "kill" -> new FailoverModes(true, false, false);
            case "term" -> new FailoverModes(false, true, false);
            case "pause" -> new FailoverModes(false, false, true);
            case "all" -> new FailoverModes(true, true, true);
            default -> throw new IllegalArgumentException("'" + name + "' is not one of " + NAMES);
        };
    }

    /** picocli's conversion of {@code --mode}: an unknown name is a usage error. */
    static final class Converter implements ITypeConverter<FailoverModes> {
        @Override
        public FailoverModes convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
