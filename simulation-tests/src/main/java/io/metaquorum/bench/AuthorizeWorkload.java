package io.metaquorum.bench;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AscendingDecisions;
import io.metaquorum.metadata.authorizer.Authorizer;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.image.AclsImage;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.TopicIds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code mq-bench authorize [--partitions N] [--acls A] [--rounds R]}: what authorization costs
 * a describe of every topic (a DESCRIBE decision per topic, as a Metadata request for all
 * topics makes), for one principal with {@code A} ACLs ({@link AuthorizeAcls}: LITERAL and
 * PREFIXED, some DENY) over {@code N} partitions in topics of 10, with metaquorum's
 * {@link Authorizer} on the image and with Kafka's own {@code StandardAuthorizer} loaded with
 * the same ACLs, in the same JVM. Each side is asked as its node asks for such a describe, for
 * the answers alone: ours as a listing walks the image's names in order
 * ({@link Authorizer#ascending}), Kafka's one {@code authorize} per topic with
 * {@code logIfDenied} false (neither builds an explanation). Our answers one name at a time
 * ({@link Authorizer#allows}, what a describe naming its topics asks) are timed too. Every
 * path first answers the same, topic by topic, also checked against our
 * {@link Authorizer#decide} (the run stops otherwise); then {@code R} warm-up rounds, then
 * {@code R} timed rounds, alternating sides within a round. {@code R} is 1,000 by default: with
 * 200, on a busy 2-core machine, the JIT had not always finished with either side when the
 * timed rounds began. Prints the median time of one whole describe for each side and the
 * ratios; then the median of {@link #FIRST_LISTINGS} first listings on an image whose ACLs just
 * changed, which sort and summarize the patterns the later listings reuse.
 *
 * <p>Prints {@code authorize_describe_all_metaquorum_ms}, {@code authorize_describe_all_kafka_ms},
 * {@code authorize_kafka_over_metaquorum}, {@code authorize_describe_named_metaquorum_ms},
 * {@code authorize_kafka_over_metaquorum_named}, {@code authorize_first_listing_metaquorum_ms}.
 */
public final class AuthorizeWorkload {
    /** Rounds of {@link #firstListings}: each replays an ACL and sorts every pattern again, so fewer than the others. */
    private static final int FIRST_LISTINGS = 101;

    private AuthorizeWorkload() {
    }

    /** The options; all positive. */
    record Options(int partitions, int acls, int rounds) {
        static Options parse(String[] args) {
            int partitions = 20_000;
            int acls = 10_000;
            int rounds = 1000;
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : "";
                switch (args[i]) {
                    case "--partitions" -> partitions = Integer.parseInt(value);
                    case "--acls" -> acls = Integer.parseInt(value);
                    case "--rounds" -> rounds = Integer.parseInt(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; options: --partitions N --acls A --rounds R");
                }
                i++;
            }
            if (partitions < AuthorizeAcls.PARTITIONS_PER_TOPIC || acls < 1 || rounds < 1) {
                throw new IllegalArgumentException("--partitions must be >= 10, the others >= 1");
            }
            return new Options(partitions, acls, rounds);
        }
    }

    public static void main(String[] args) throws IOException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("mq-bench authorize: " + e.getMessage());
            System.exit(2);
            return;
        }
        int topics = options.partitions() / AuthorizeAcls.PARTITIONS_PER_TOPIC;
        List<MetadataRecord> aclRecords = AuthorizeAcls.aclRecords(topics, options.acls());
        MetadataImage image = replay(AuthorizeAcls.topicRecords(topics), aclRecords);
        List<String> names = new ArrayList<>(image.topics().byName().keySet());
        System.out.printf("# %,d partitions in %,d topics; %,d ACLs for %s (%,d ACLs in the image); %d rounds%n",
                (long) topics * AuthorizeAcls.PARTITIONS_PER_TOPIC, names.size(), aclRecords.size(),
                AuthorizeAcls.PRINCIPAL, image.acls().byId().size(), options.rounds());
        try (KafkaAuthorizerSide kafka = new KafkaAuthorizerSide(aclRecords, names, AuthorizeAcls.PRINCIPAL,
                AuthorizeAcls.HOST)) {
            int allowed = sameAnswers(image.acls(), names, kafka);
            System.out.printf("# both sides allow DESCRIBE on %,d of %,d topics%n", allowed, names.size());
            double[][] times = timedRounds(image.acls(), names, kafka, allowed, options.rounds());
            double listing = median(times[0]);
            double named = median(times[1]);
            double kafkaMs = median(times[2]);
            double first = median(firstListings(image, names, allowed));
            System.out.printf(Locale.ROOT, "authorize_describe_all_metaquorum_ms %.3f ms%n", listing);
            System.out.printf(Locale.ROOT, "authorize_describe_all_kafka_ms %.3f ms%n", kafkaMs);
            System.out.printf(Locale.ROOT, "authorize_kafka_over_metaquorum %.1f x%n", kafkaMs / listing);
            System.out.printf(Locale.ROOT, "authorize_describe_named_metaquorum_ms %.3f ms%n", named);
            System.out.printf(Locale.ROOT, "authorize_kafka_over_metaquorum_named %.1f x%n", kafkaMs / named);
            System.out.printf(Locale.ROOT, "authorize_first_listing_metaquorum_ms %.3f ms%n", first);
        }
    }

    /**
     * {@code rounds} warm-up rounds, then {@code rounds} timed ones; each round times our listing
     * walk, our decisions one name at a time, and Kafka's, in that order. Returns the three
     * sides' timed rounds in milliseconds.
     */
    private static double[][] timedRounds(AclsImage acls, List<String> names, KafkaAuthorizerSide kafka, int allowed,
                                          int rounds) {
        double[][] times = new double[3][rounds];
        for (int pass = 0; pass < 2; pass++) {
            for (int round = 0; round < rounds; round++) {
                long start = System.nanoTime();
                int listed = listEveryTopic(acls, names);
                times[0][round] = (System.nanoTime() - start) / 1e6;
                start = System.nanoTime();
                int oursAllowed = describeEveryTopic(acls, names);
                times[1][round] = (System.nanoTime() - start) / 1e6;
                start = System.nanoTime();
                int kafkaAllowed = kafka.describeEveryTopic();
                times[2][round] = (System.nanoTime() - start) / 1e6;
                if (listed != allowed || oursAllowed != allowed || kafkaAllowed != allowed) {
                    throw new IllegalStateException("a side changed its answers");
                }
            }
        }
        return times;
    }

    /**
     * The first listing on an image whose ACLs just changed: it sorts and summarizes the
     * patterns ({@link AscendingDecisions}' views are kept per index). Each of
     * {@link #FIRST_LISTINGS} rounds adds one ACL of another principal to {@code image} (not
     * timed) and times one listing on the result.
     */
    private static double[] firstListings(MetadataImage image, List<String> names, int allowed) {
        double[] times = new double[FIRST_LISTINGS];
        for (int round = 0; round < FIRST_LISTINGS; round++) {
            MetadataDelta delta = new MetadataDelta(image);
            delta.replay(MetadataRecord.newBuilder().setAccessControlEntry(AccessControlEntryRecord.newBuilder()
                    .setId(TopicIds.uuid(3, round + 1)).setResourceType(ResourceType.TOPIC.code())
                    .setResourceName(names.get(round % names.size())).setPatternType(PatternType.LITERAL.code())
                    .setPrincipal("User:other-" + round).setHost("*").setOperation(AclOperation.READ.code())
                    .setPermissionType(PermissionType.ALLOW.code())).build(), image.lastCommittedOffset() + 1, 1);
            AclsImage changed = delta.apply().acls();
            long start = System.nanoTime();
            int listed = listEveryTopic(changed, names);
            times[round] = (System.nanoTime() - start) / 1e6;
            if (listed != allowed) {
                throw new IllegalStateException("another principal's ACL changed the answers");
            }
        }
        return times;
    }

    private static MetadataImage replay(List<MetadataRecord> topicRecords, List<MetadataRecord> aclRecords) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = 0;
        for (List<MetadataRecord> records : List.of(topicRecords, aclRecords)) {
            for (MetadataRecord record : records) {
                delta.replay(record, offset++, 1);
            }
        }
        return delta.apply();
    }

    /** One listing of every topic, as a node lists them (names ascending); returns how many were allowed. */
    private static int listEveryTopic(AclsImage acls, List<String> names) {
        AscendingDecisions listing = Authorizer.ascending(acls, AuthorizerSettings.DEFAULT, AuthorizeAcls.PRINCIPAL,
                AuthorizeAcls.HOST, AclOperation.DESCRIBE, ResourceType.TOPIC);
        int allowed = 0;
        for (String name : names) {
            if (listing.allows(name)) {
                allowed++;
            }
        }
        return allowed;
    }

    /** One describe naming every topic, each decided alone; returns how many were allowed. */
    private static int describeEveryTopic(AclsImage acls, List<String> names) {
        int allowed = 0;
        for (String name : names) {
            if (Authorizer.allows(acls, AuthorizerSettings.DEFAULT, AuthorizeAcls.PRINCIPAL, AuthorizeAcls.HOST,
                    AclOperation.DESCRIBE, ResourceType.TOPIC, name)) {
                allowed++;
            }
        }
        return allowed;
    }

    /** The number of topics both allow; stops the run at the first topic they answer differently. */
    private static int sameAnswers(AclsImage acls, List<String> names, KafkaAuthorizerSide kafka) {
        AscendingDecisions listing = Authorizer.ascending(acls, AuthorizerSettings.DEFAULT, AuthorizeAcls.PRINCIPAL,
                AuthorizeAcls.HOST, AclOperation.DESCRIBE, ResourceType.TOPIC);
        int allowed = 0;
        for (int i = 0; i < names.size(); i++) {
            var ours = Authorizer.decide(acls, AuthorizerSettings.DEFAULT, AuthorizeAcls.PRINCIPAL, AuthorizeAcls.HOST,
                    AclOperation.DESCRIBE, ResourceType.TOPIC, names.get(i));
            boolean answer = Authorizer.allows(acls, AuthorizerSettings.DEFAULT, AuthorizeAcls.PRINCIPAL,
                    AuthorizeAcls.HOST, AclOperation.DESCRIBE, ResourceType.TOPIC, names.get(i));
            if (ours.allowed() != kafka.allowsDescribe(i) || answer != ours.allowed()
                    || listing.allows(names.get(i)) != answer) {
                throw new IllegalStateException("Kafka, allows() or the listing answers otherwise: " + ours.explain());
            }
            allowed += ours.allowed() ? 1 : 0;
        }
        return allowed;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
