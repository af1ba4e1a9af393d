package io.metaquorum.bench;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.Authorizer;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.image.AclsImage;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
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
 * the same ACLs, in the same JVM. Each side is asked as a filter asks, for the answer alone:
 * ours through {@link Authorizer#allows}, Kafka's with {@code logIfDenied} false (neither
 * builds an explanation). Each side first answers the same, topic by topic, also checked
 * against our {@link Authorizer#decide} (the run stops otherwise); then {@code R} warm-up
 * rounds, then {@code R} timed rounds, alternating sides within a round. {@code R} is 1,000 by
 * default: with 200, on a busy 2-core machine, the JIT had not always finished with either
 * side when the timed rounds began (ours measured 0.3 or 0.8 ms from one run to the next).
 * Prints the median time of one whole describe for each side and the ratio.
 *
 * <p>Prints {@code authorize_describe_all_metaquorum_ms}, {@code authorize_describe_all_kafka_ms},
 * {@code authorize_kafka_over_metaquorum}.
 */
public final class AuthorizeWorkload {
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
            double[] ours = new double[options.rounds()];
            double[] theirs = new double[options.rounds()];
            for (int pass = 0; pass < 2; pass++) {
                for (int round = 0; round < options.rounds(); round++) {
                    long start = System.nanoTime();
                    int oursAllowed = describeEveryTopic(image.acls(), names);
                    ours[round] = (System.nanoTime() - start) / 1e6;
                    start = System.nanoTime();
                    int kafkaAllowed = kafka.describeEveryTopic();
                    theirs[round] = (System.nanoTime() - start) / 1e6;
                    if (oursAllowed != allowed || kafkaAllowed != allowed) {
                        throw new IllegalStateException("a side changed its answers");
                    }
                }
            }
            double oursMs = median(ours);
            double kafkaMs = median(theirs);
            System.out.printf(Locale.ROOT, "authorize_describe_all_metaquorum_ms %.3f ms%n", oursMs);
            System.out.printf(Locale.ROOT, "authorize_describe_all_kafka_ms %.3f ms%n", kafkaMs);
            System.out.printf(Locale.ROOT, "authorize_kafka_over_metaquorum %.1f x%n", kafkaMs / oursMs);
        }
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

    /** One describe of every topic with our authorizer; returns how many were allowed. */
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
        int allowed = 0;
        for (int i = 0; i < names.size(); i++) {
            var ours = Authorizer.decide(acls, AuthorizerSettings.DEFAULT, AuthorizeAcls.PRINCIPAL, AuthorizeAcls.HOST,
                    AclOperation.DESCRIBE, ResourceType.TOPIC, names.get(i));
            boolean answer = Authorizer.allows(acls, AuthorizerSettings.DEFAULT, AuthorizeAcls.PRINCIPAL,
                    AuthorizeAcls.HOST, AclOperation.DESCRIBE, ResourceType.TOPIC, names.get(i));
            if (ours.allowed() != kafka.allowsDescribe(i) || answer != ours.allowed()) {
                throw new IllegalStateException("Kafka or allows() answers otherwise: " + ours.explain());
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
