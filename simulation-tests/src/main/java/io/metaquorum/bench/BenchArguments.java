package io.metaquorum.bench;

/** The value parsing the hand-parsed bench workloads share: a missing value or a bad number is a clear error. */
final class BenchArguments {
    private BenchArguments() {
    }

    /** The value after {@code option}, at {@code index}. */
    static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    /** {@code text} as a number; underscores may group its digits ({@code 1_000_000}). */
    static long number(String text, String option) {
        try {
            return Long.parseLong(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a number, got '" + text + "'");
        }
    }
}
