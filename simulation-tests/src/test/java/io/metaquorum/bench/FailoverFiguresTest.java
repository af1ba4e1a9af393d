package io.metaquorum.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class FailoverFiguresTest {
    @Test
    void theDefaultRunPrintsTheFiguresItAlwaysPrinted() {
        FailoverFigures figures = new FailoverFigures();
        assertEquals("# kill -9 try 1: new leader 120 ms, first committed append 147 ms", figures.addKill(120, 147));
        figures.addKill(80, 107);
        figures.addKill(91, 112);
        assertEquals("# SIGTERM try 1: new leader 85 ms", figures.addHandoff(85));
        figures.addHandoff(161);
        figures.addHandoff(56);
        assertEquals(List.of("failover_new_leader_ms 91 ms", "failover_first_write_ms 112 ms",
                "handoff_new_leader_ms 85 ms"), figures.figureLines());
    }

    @Test
    void thePauseModePrintsItsMedianAndMaximumOnly() {
        FailoverFigures figures = new FailoverFigures();
        assertEquals("# SIGSTOP try 1: new leader 3100 ms", figures.addPause(3100));
        assertEquals("# SIGSTOP try 2: new leader 2400 ms", figures.addPause(2400));
        figures.addPause(9800);
        assertEquals(List.of("pause_new_leader_ms 3100 ms", "pause_new_leader_max_ms 9800 ms"), figures.figureLines());
    }

    @Test
    void allModesPrintInTheOrderTheyRun() {
        FailoverFigures figures = new FailoverFigures();
        figures.addPause(2000);
        figures.addHandoff(50);
        figures.addKill(90, 110);
        assertEquals(List.of("failover_new_leader_ms 90 ms", "failover_first_write_ms 110 ms",
                "handoff_new_leader_ms 50 ms", "pause_new_leader_ms 2000 ms", "pause_new_leader_max_ms 2000 ms"),
                figures.figureLines());
    }

    @Test
    void theMedianOfAnEvenCountIsTheUpperMiddleValue() {
        assertEquals(30, FailoverFigures.median(List.of(40L, 10L, 30L, 20L)));
        assertEquals(40, FailoverFigures.max(List.of(40L, 10L, 30L, 20L)));
    }

    @Test
    void modesAreNamedAsPRODUCTmdNamesThem() {
        assertEquals(new FailoverModes(true, false, false), FailoverModes.parse("kill"));
        assertEquals(new FailoverModes(false, true, false), FailoverModes.parse("term"));
        assertEquals(new FailoverModes(false, false, true), FailoverModes.parse("pause"));
        assertEquals(new FailoverModes(true, true, true), FailoverModes.parse("all"));
        assertEquals(new FailoverModes(true, true, false), FailoverModes.DEFAULT, "no --mode: kill -9, then SIGTERM");
        TypeConversionException unknown = assertThrows(TypeConversionException.class,
                () -> new FailoverModes.Converter().convert("stop"));
        assertEquals("'stop' is not one of kill, term, pause, all", unknown.getMessage());
    }
}
