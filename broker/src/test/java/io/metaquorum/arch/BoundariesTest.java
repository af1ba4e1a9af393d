package io.metaquorum.arch;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatchers;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.metaquorum.raft.RaftNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/engineering-rules.md rules 2 and 11, enforced by the build. Every production package is
 * deterministic unless it is named below as an adapter: deterministic code reads no clock,
 * makes no randomness of its own, starts no thread, touches no socket, and keeps no
 * hash-ordered collection whose iteration order could differ between runs. gRPC lives only
 * in adapter packages, RocksDB only in the log store. A new package is deterministic until
 * someone argues here that it is an adapter.
 */
class BoundariesTest {
    /** Where time, threads, sockets, files and process-wide randomness are allowed. */
    private static final String[] ADAPTERS = {
        "io.metaquorum.protocol..",             // generated code
        "io.metaquorum.raft.driver..",          // the driver thread around the core
        "io.metaquorum.raft.transport..",       // gRPC
        "io.metaquorum.metadata.log.rocksdb..", // RocksDB and snapshot files
        "io.metaquorum.metadata.tool..",        // offline inspection of data dirs
        "io.metaquorum.metadata.snapshot.thread..", // the thread that writes snapshots off the driver
        "io.metaquorum.common.time..",          // the system clock, injected elsewhere
        "io.metaquorum.common.fault..",         // halts the process
        "io.metaquorum.common.io..",            // file-system helpers
        "io.metaquorum.server..",               // process main, config, wiring
        "io.metaquorum.net..",                  // host and port of a listener, resolved to a socket address
        "io.metaquorum.cli..",                  // command-line tools
        "io.metaquorum.client..",               // admin client: deadlines, backoff sleeps, gRPC channels
        "io.metaquorum.bench..",                // benchmarks
        "io.metaquorum.broker.partition.disk..", // partition directories on disk and the LogManager thread
        "io.metaquorum.security.certs..",       // key generation and serials need SecureRandom; key and store files
        "io.metaquorum.security.grpc..",        // TLS credentials, key and trust store files, each call's identity
    };

    /**
     * The role assemblies the server and the simulator both run (docs/engineering-rules.md rule 16), and
     * the scheduling rules they share: deterministic by the rules above, never an adapter.
     */
    private static final String[] ASSEMBLIES = {
        "io.metaquorum.broker.node",
        "io.metaquorum.broker.partition",
    };

    private static JavaClasses classes;

    /**
     * Test classes this module takes from another's test jar (raft's {@code RefusingPort}):
     * DO_NOT_INCLUDE_TESTS knows test-classes directories, not a packaged {@code -tests.jar}.
     */
    private static final ImportOption NO_TEST_JARS = location -> !location.contains("-tests.jar");

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(NO_TEST_JARS).importPackages("io.metaquorum");
    }

    @Test
    void deterministicCodeReadsNoClockAndMakesNoRandomness() {
        ArchRule rule = noClasses().that().resideOutsideOfPackages(ADAPTERS)
                .should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(java.time.Clock.class, "systemUTC")
                .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
                .orShould().callMethod(Math.class, "random")
                .orShould().callMethod(java.util.UUID.class, "randomUUID")
                .orShould().callConstructor(java.util.Random.class)
                .orShould().callConstructor(java.util.Random.class, long.class)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.security.SecureRandom")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.concurrent.ThreadLocalRandom")
                .orShould().callMethod(Thread.class, "sleep", long.class);
        rule.check(classes);
    }

    /** {@link RaftNode} is the thread-safe facade other threads use to reach the driver: its futures are its point. */
    @Test
    void deterministicCodeStartsNoThreadsAndOpensNoSockets() {
        ArchRule rule = noClasses().that().resideOutsideOfPackages(ADAPTERS)
                .and().doNotHaveFullyQualifiedName(RaftNode.class.getName())
                .should().dependOnClassesThat().resideInAnyPackage("java.net..", "java.nio.channels..",
                        "java.util.concurrent..", "io.grpc..", "org.rocksdb..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class);
        rule.check(classes);
    }

    /**
     * HashMap and HashSet iterate in an order that depends on hash codes (identity hashes
     * differ between runs); Set.of and Map.of randomize theirs per JVM. Deterministic code
     * uses TreeMap/TreeSet, LinkedHashMap/LinkedHashSet, or lists.
     */
    @Test
    void deterministicCodeKeepsNoHashOrderedCollections() {
        ArchRule rule = noClasses().that().resideOutsideOfPackages(ADAPTERS)
                .should().callConstructor(java.util.HashMap.class)
                .orShould().callConstructor(java.util.HashMap.class, int.class)
                .orShould().callConstructor(java.util.HashSet.class)
                .orShould().callConstructor(java.util.HashSet.class, int.class)
                .orShould().callMethodWhere(target(nameMatching("of|copyOf|ofEntries"))
                        .and(target(owner(type(java.util.Set.class).or(type(java.util.Map.class))))))
                .orShould().callMethod(java.util.stream.Collectors.class, "toSet")
                .orShould().callMethod(java.util.stream.Collectors.class, "toMap", java.util.function.Function.class,
                        java.util.function.Function.class);
        rule.check(classes);
    }

    /**
     * A rule over an empty or exempt package passes vacuously: each assembly package must hold
     * classes and be outside every adapter package. Its I/O goes through its ports only, so it
     * depends on no server wiring, no disk adapter and no file API.
     */
    @Test
    void theBrokerNodeAssemblyIsHeldToTheDeterminismRulesAndReachesIoOnlyThroughPorts() {
        for (String assembly : ASSEMBLIES) {
            assertFalse(PackageMatchers.of(ADAPTERS).test(assembly), assembly + " must not be an adapter");
            assertTrue(classes.stream().anyMatch(c -> c.getPackageName().equals(assembly)), assembly + " has classes");
        }
        ArchRule rule = noClasses().that().resideInAnyPackage(ASSEMBLIES)
                .should().dependOnClassesThat().resideInAnyPackage("io.metaquorum.server..",
                        "io.metaquorum.broker.partition.disk..", "io.metaquorum.client.grpc..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.nio.file.Files")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.File")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileInputStream")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileOutputStream")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.RandomAccessFile");
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

    /**
     * Packages depend one way: a cycle between two packages means neither can be read, tested
     * or replaced without the other.
     */
    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("io.metaquorum.(**)").should().beFreeOfCycles().check(classes);
    }
}
