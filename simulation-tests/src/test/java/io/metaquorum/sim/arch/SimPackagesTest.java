package io.metaquorum.sim.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The simulator's and benchmarks' packages depend one way, as production's do (its BoundariesTest). */
class SimPackagesTest {
    @Test
    void simulatorPackagesAreFreeOfCycles() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.metaquorum.sim", "io.metaquorum.bench");
        slices().matching("io.metaquorum.(**)").should().beFreeOfCycles().check(classes);
    }
}
