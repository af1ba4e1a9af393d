package io.metaquorum.security;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Kafka does to a rule's replacement before Java's {@link Matcher#replaceAll} sees it:
 * a {@code $n} that names no group of the pattern is made literal text, so that with three
 * groups {@code $1@$4} gives the first group followed by {@code @$4} rather than an error.
 *
 * <p>Java reads a reference's first digit as the group and takes more digits only while they
 * still name a group, so a reference fails in Java exactly when its first digit is above the
 * group count. Those are the ones escaped. Two things are copied from Kafka on purpose,
 * because a rule list must map a certificate as Kafka maps it:
 * <ul>
 *   <li>A pattern without groups gets no escaping at all, so its {@code $1} fails the mapping.
 *   <li>Kafka finds the references in the replacement as written but inserts each backslash
 *       at that position in the text its earlier backslashes have already lengthened. Each
 *       escape after the first lands one character further left per earlier escape: with one
 *       group {@code $2$3} becomes {@code \$\2$3}, which Java refuses (there is no group 3).
 * </ul>
 * A reference too long for an {@code int} also fails, as Kafka parses the whole number first.
 */
final class AbsentGroupReferences {
    private static final Pattern REFERENCE = Pattern.compile("\\$([0-9]+)");

    private AbsentGroupReferences() {
    }

    /** The replacement with its references to absent groups escaped the way Kafka escapes them. */
    static String escape(String replacement, int groupCount) {
        if (groupCount == 0) {
            return replacement;
        }
        StringBuilder edited = new StringBuilder(replacement);
        Matcher reference = REFERENCE.matcher(replacement);
        while (reference.find()) {
            String digits = reference.group(1);
            if (digits.charAt(0) == '0') {
                continue; // group 0, the whole match, always exists
            }
            Integer.parseInt(digits); // throws NumberFormatException past an int, failing the mapping
            if (digits.charAt(0) - '0' > groupCount) {
                edited.insert(reference.start(), '\\'); // offset in the text as written: see the class comment
            }
        }
        return edited.toString();
    }
}
