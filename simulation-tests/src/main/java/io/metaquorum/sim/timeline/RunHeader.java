package io.metaquorum.sim.timeline;

/**
 * What a timeline page says of its run above the drawing.
 *
 * @param verdict "passed", or where and how the run failed
 */
public record RunHeader(long seed, String summaryLine, boolean passed, String verdict, String profile) {
}
