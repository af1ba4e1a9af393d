package io.metaquorum.sim.system.invariant;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import java.util.TreeSet;

/** A short description of where two images differ, for failure messages. */
final class ImageDiff {
    private ImageDiff() {
    }

    static String describe(MetadataImage expected, MetadataImage actual) {
        if (!expected.features().equals(actual.features())) {
            return "features " + expected.features() + " vs " + actual.features();
        }
        if (!expected.cluster().equals(actual.cluster())) {
            return "brokers " + expected.cluster().sortedById() + " vs " + actual.cluster().sortedById();
        }
        if (!expected.topics().equals(actual.topics())) {
            TreeSet<String> names = new TreeSet<>();
            expected.topics().sortedByName().forEach(t -> names.add(t.name()));
            actual.topics().sortedByName().forEach(t -> names.add(t.name()));
            for (String name : names) {
                TopicImage e = expected.topics().topic(name);
                TopicImage a = actual.topics().topic(name);
                if (e == null || !e.equals(a)) {
                    return "topic '" + name + "': " + e + " vs " + a;
                }
            }
            return "topics (by id)";
        }
        if (!expected.configs().equals(actual.configs())) {
            return "configs";
        }
        return expected.provenance().equals(actual.provenance()) ? "acls"
                : "provenance " + expected.provenance() + " vs " + actual.provenance();
    }
}
