package io.metaquorum.cli;

import java.io.Console;
import java.util.Optional;

/**
 * The yes/no question {@code mq-acls --remove} asks before it deletes (kafka-acls.sh's
 * prompt). Without a terminal there is nobody to answer: the tool refuses rather than wait
 * on a pipe that never speaks, and {@code --force} skips the question.
 */
@FunctionalInterface
interface RemoveConfirmation {
    /** The answer to {@code question}: true for y; empty when there is no terminal to ask on. */
    Optional<Boolean> ask(String question);

    /** Asks on the process's terminal, {@link System#console()}. */
    static RemoveConfirmation console() {
        return question -> {
            Console console = System.console();
            if (console == null) {
                return Optional.empty();
            }
            String answer = console.readLine("%s (y/n) ", question);
            return Optional.of(answer != null && answer.trim().equalsIgnoreCase("y"));
        };
    }
}
