package io.metaquorum.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * STYLE.md principles 2 and 11, enforced by the build: the deterministic code (the raft
 * core, the metadata image, records and loader) reads no clock, makes no randomness of its
 * own, starts no thread and touches no socket; gRPC lives only in adapter packages, RocksDB
 * only in the log store.
 */
class BoundariesTest {
    private static final String[] DETERMINISTIC = {
        "io.metaquorum.raft.core..", "io.metaquorum.raft.storage..", "io.metaquorum.raft.snapshot..",
        "io.metaquorum.metadata.image..", "io.metaquorum.metadata.record..", "io.metaquorum.metadata.loader..",
        "io.metaquorum.metadata.controller..", "io.metaquorum.common.invariant.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.metaquorum");
    }

    @Test
    void deterministicCodeReadsNoClockAndMakesNoRandomness() {
        ArchRule rule = noClasses().that().resideInAnyPackage(DETERMINISTIC)
                .should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(java.time.Instant.class, "now")
                .orShould().callConstructor(java.util.Random.class)
                .orShould().callConstructor(java.util.Random.class, long.class)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.concurrent.ThreadLocalRandom")
                .orShould().callMethod(Thread.class, "sleep", long.class);
        rule.check(classes);
    }

    @Test
    void deterministicCodeStartsNoThreadsAndOpensNoSockets() {
        ArchRule rule = noClasses().that().resideInAnyPackage(DETERMINISTIC)
                .should().dependOnClassesThat().resideInAnyPackage("java.net..", "java.nio.channels..",
                        "java.util.concurrent..", "io.grpc..", "org.rocksdb..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class);
        rule.check(classes);
    }

    @Test
    void grpcOnlyInTransportAdaptersAndGeneratedCode() {
        ArchRule rule = noClasses().that().resideOutsideOfPackages("io.metaquorum.protocol..", "..grpc..",
                        "io.metaquorum.server..")
                .should().dependOnClassesThat().resideInAnyPackage("io.grpc..");
        rule.check(classes);
    }

    @Test
    void rocksDbOnlyInTheLogStore() {
        ArchRule rule = noClasses().that().resideOutsideOfPackage("io.metaquorum.metadata.log.rocksdb..")
                .should().dependOnClassesThat().resideInAnyPackage("org.rocksdb..");
        rule.check(classes);
    }
}
