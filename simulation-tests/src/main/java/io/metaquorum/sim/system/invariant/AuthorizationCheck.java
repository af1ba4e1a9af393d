package io.metaquorum.sim.system.invariant;

import com.google.protobuf.Message;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.Authorizer;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.image.AclsImage;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.AlterConfigsResourceResult;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.AlterUserScramCredentialsResult;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreatePartitionsTopicResult;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.security.Caller;
import io.metaquorum.sim.check.CheckFailure;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Every admin answer agrees with the ACLs of the image its node decided on, as an
 * independent reference decides them: Kafka's own {@code StandardAuthorizer}
 * ({@link KafkaAclReference}) loaded with that image's ACL records and the nodes' settings,
 * never metaquorum's {@code Authorizer} (the thing judged). The image is the one the answer
 * was decided on: a read's, the answering node's committed image as it answered (the
 * simulation is single-threaded, so that is the image its handler read); a write's, the
 * active controller's committed image when it ran the operation, which the simulator's
 * gateway hands in ({@link WriteDecision}).
 *
 * <p>What is checked, per {@code RpcAccessTable}: TOPIC_AUTHORIZATION_FAILED for a topic
 * exactly when the reference denies it (CreateTopics: CREATE on the cluster, else on the
 * topic; DeleteTopics: DELETE on the cluster, else DESCRIBE and DELETE on the topic, or
 * DESCRIBE alone for a topic answered as not existing;
 * CreatePartitions: ALTER; a topic's IncrementalAlterConfigs: ALTER_CONFIGS; a named
 * DescribeTopics: DESCRIBE); a created topic's id, counts and configs hidden exactly when
 * DESCRIBE_CONFIGS on it is denied; a ListTopics holds exactly the image's topics the caller
 * may DESCRIBE; CreateAcls, DeleteAcls and AlterUserScramCredentials (per user) answer
 * CLUSTER_AUTHORIZATION_FAILED exactly when
 * ALTER on the cluster is denied; AUTHORIZER_NOT_READY exactly when a caller who is not a
 * super user meets an image not yet loaded. An entry answered without a decision (routing:
 * NOT_CONTROLLER, a full queue; or no controller ran the attempt) says nothing about
 * authorization and is skipped, unless it claims a denial, which needs a decision.
 */
public final class AuthorizationCheck {
    public static final String NAME = "admin-answer-authorized";
    /** References kept, by ACL content: the nodes' images lag each other by a few ACL changes at most. */
    private static final int REFERENCES_KEPT = 8;
    /** Codes a write answers without deciding anything about its entries. */
    private static final Set<ErrorCode> ROUTING = EnumSet.of(ErrorCode.NOT_CONTROLLER,
            ErrorCode.THROTTLING_QUOTA_EXCEEDED);

    /** Where one write attempt was decided: filled in when an active controller runs it. */
    public static final class WriteDecision {
        private int controllerId = -1;
        private MetadataImage image;

        /** Controller {@code id} ran the attempt's operation on its committed image {@code committed}. */
        public void decided(int id, MetadataImage committed) {
            controllerId = id;
            image = committed;
        }

        boolean made() {
            return image != null;
        }
    }

    private final AuthorizerSettings settings;
    private final LinkedHashMap<AclsImage, KafkaAclReference> references =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<AclsImage, KafkaAclReference> eldest) {
                    if (size() > REFERENCES_KEPT) {
                        eldest.getValue().close();
                        return true;
                    }
                    return false;
                }
            };
    private long judged;
    private long denied;

    /** @param settings the nodes' {@code super.users} and {@code allow.everyone.if.no.acl.found} */
    public AuthorizationCheck(AuthorizerSettings settings) {
        this.settings = settings;
    }

    /** Entries (topics, resources, listed names, ACL writes) judged against the reference. */
    public long judged() {
        return judged;
    }

    /** Of them, those the reference denied. */
    public long denied() {
        return denied;
    }

    /** A read node {@code nodeId} answered from {@code image}, its committed image at that moment. */
    public void read(int nodeId, Caller caller, Object call, Message response, MetadataImage image) {
        Judge judge = new Judge(nodeId, caller, call, image, "the committed image node " + nodeId + " answered from");
        AdminResponseHeader header = header(response);
        if (!judge.admitted(header.getErrorCode())) {
            return;
        }
        if (response instanceof DescribeTopicsResponse described) {
            for (DescribedTopic topic : described.getTopicsList()) {
                judge.entry("topic '" + topic.getName() + "'", topic.getErrorCode() == ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                        judge.topic(AclOperation.DESCRIBE, topic.getName()));
            }
        } else if (response instanceof ListTopicsResponse listed) {
            judge.listing(listed);
        }
    }

    /** A write answered by node {@code nodeId}, decided (or not) as {@code decision} says. */
    public void write(int nodeId, Caller caller, Object call, Message response, WriteDecision decision) {
        Judge judge = new Judge(nodeId, caller, call, decision.image, "controller " + decision.controllerId
                + "'s committed image");
        if (response instanceof CreateTopicsResponse created) {
            for (CreatableTopicResult topic : created.getTopicsList()) {
                String name = topic.getName();
                if (judge.decided(name, topic.getErrorCode(), ErrorCode.TOPIC_AUTHORIZATION_FAILED)) {
                    Rule create = judge.either(judge.cluster(AclOperation.CREATE), judge.topic(AclOperation.CREATE,
                            name));
                    judge.entry("topic '" + name + "'", topic.getErrorCode() == ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                            create);
                    if (topic.getErrorCode() == ErrorCode.NONE) {
                        judge.entry("the id, counts and configs of created topic '" + name + "'",
                                topic.getTopicConfigErrorCode() == ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                judge.topic(AclOperation.DESCRIBE_CONFIGS, name));
                    }
                }
            }
        } else if (response instanceof DeleteTopicsResponse deleted) {
            for (DeletableTopicResult topic : deleted.getTopicsList()) {
                String name = topic.getName();
                if (judge.decided(name, topic.getErrorCode(), ErrorCode.TOPIC_AUTHORIZATION_FAILED)) {
                    // A topic that does not exist is named so to whoever may DESCRIBE it, DELETE or not, as Kafka does.
                    Rule deletable = topic.getErrorCode() == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                            ? judge.topic(AclOperation.DESCRIBE, name)
                            : judge.both(judge.topic(AclOperation.DESCRIBE, name), judge.topic(AclOperation.DELETE,
                                    name));
                    judge.entry("topic '" + name + "'", topic.getErrorCode() == ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                            judge.either(judge.cluster(AclOperation.DELETE), deletable));
                }
            }
        } else if (response instanceof CreatePartitionsResponse grown) {
            for (CreatePartitionsTopicResult topic : grown.getTopicsList()) {
                if (judge.decided(topic.getName(), topic.getErrorCode(), ErrorCode.TOPIC_AUTHORIZATION_FAILED)) {
                    judge.entry("topic '" + topic.getName() + "'",
                            topic.getErrorCode() == ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                            judge.topic(AclOperation.ALTER, topic.getName()));
                }
            }
        } else if (response instanceof IncrementalAlterConfigsResponse altered) {
            for (AlterConfigsResourceResult resource : altered.getResultsList()) {
                boolean broker = resource.getResourceType() == ConfigResourceType.CONFIG_RESOURCE_BROKER;
                ErrorCode deniedCode = broker ? ErrorCode.CLUSTER_AUTHORIZATION_FAILED
                        : ErrorCode.TOPIC_AUTHORIZATION_FAILED;
                if (judge.decided(resource.getResourceName(), resource.getErrorCode(), deniedCode)) {
                    judge.entry("config resource '" + resource.getResourceName() + "'",
                            resource.getErrorCode() == deniedCode, broker ? judge.cluster(AclOperation.ALTER_CONFIGS)
                                    : judge.topic(AclOperation.ALTER_CONFIGS, resource.getResourceName()));
                }
            }
        } else if (response instanceof CreateAclsResponse created) {
            for (int i = 0; i < created.getResultsCount(); i++) {
                judge.clusterAlterWrite("creation " + i, created.getResults(i).getErrorCode());
            }
        } else if (response instanceof DeleteAclsResponse deleted) {
            for (int i = 0; i < deleted.getFilterResultsCount(); i++) {
                judge.clusterAlterWrite("filter " + i, deleted.getFilterResults(i).getErrorCode());
            }
        } else if (response instanceof AlterUserScramCredentialsResponse altered) {
            for (AlterUserScramCredentialsResult user : altered.getResultsList()) {
                judge.clusterAlterWrite("user '" + user.getUser() + "'", user.getErrorCode());
            }
        }
    }

    private static AdminResponseHeader header(Message response) {
        if (response instanceof DescribeTopicsResponse r) {
            return r.getHeader();
        }
        return response instanceof ListTopicsResponse r ? r.getHeader() : AdminResponseHeader.getDefaultInstance();
    }

    private KafkaAclReference reference(AclsImage acls) {
        KafkaAclReference reference = references.get(acls);
        if (reference == null) {
            reference = new KafkaAclReference(acls, settings);
            references.put(acls, reference);
        }
        return reference;
    }

    /**
     * One question's reference answer, with the words that say it and metaquorum's own
     * explanation (asked only for a failure's message).
     */
    private record Rule(boolean allowed, Supplier<String> need, Supplier<String> explained) {
    }

    /** The judging of one answer. */
    private final class Judge {
        private final int nodeId;
        private final Caller caller;
        private final Object call;
        private final MetadataImage image;
        private final String imageName;

        Judge(int nodeId, Caller caller, Object call, MetadataImage image, String imageName) {
            this.nodeId = nodeId;
            this.caller = caller;
            this.call = call;
            this.image = image;
            this.imageName = imageName;
        }

        private String principal() {
            return caller.principal().toString();
        }

        Rule topic(AclOperation operation, String name) {
            return ask(operation, ResourceType.TOPIC, name);
        }

        Rule cluster(AclOperation operation) {
            return ask(operation, ResourceType.CLUSTER, Authorizer.CLUSTER_NAME);
        }

        private Rule ask(AclOperation operation, ResourceType type, String name) {
            boolean allowed = reference(image.acls()).allows(principal(), caller.host(), operation, type, name);
            return new Rule(allowed, () -> operation + " on " + type + " '" + name + "'", () -> Authorizer.decide(
                    image.acls(), settings, principal(), caller.host(), operation, type, name).explain());
        }

        Rule either(Rule first, Rule second) {
            return first.allowed() ? new Rule(true, () -> first.need().get() + " (or else " + second.need().get() + ")",
                    first.explained()) : new Rule(second.allowed(), () -> first.need().get() + ", else "
                    + second.need().get(),
                    () -> first.explained().get() + "; " + second.explained().get());
        }

        Rule both(Rule first, Rule second) {
            return new Rule(first.allowed() && second.allowed(), () -> first.need().get() + " and "
                    + second.need().get(),
                    () -> first.explained().get() + "; " + second.explained().get());
        }

        /**
         * Whether a write entry answered {@code code} reflects an authorization decision: a
         * claimed denial needs one; routing codes and attempts no controller ran say nothing.
         */
        boolean decided(String entry, ErrorCode code, ErrorCode deniedCode) {
            if (image == null) {
                if (code == deniedCode || code == ErrorCode.AUTHORIZER_NOT_READY) {
                    throw new CheckFailure(NAME, "node " + nodeId + " answered " + call + " of " + caller + " with "
                            + code + " for '" + entry + "', but no active controller decided the attempt");
                }
                return false;
            }
            if (ROUTING.contains(code)) {
                return false;
            }
            return admitted(code);
        }

        /** Whether the caller was admitted to the image: AUTHORIZER_NOT_READY exactly when it must be. */
        boolean admitted(ErrorCode code) {
            boolean refused = code == ErrorCode.AUTHORIZER_NOT_READY;
            boolean mustRefuse = !settings.isSuperUser(principal()) && image.lastCommittedOffset() < 0;
            if (refused != mustRefuse) {
                throw new CheckFailure(NAME, "node " + nodeId + " answered " + call + " of " + caller
                        + (refused ? " AUTHORIZER_NOT_READY" : " with " + code) + " on " + imageName + " at offset "
                        + image.lastCommittedOffset() + (mustRefuse ? ", which it has not loaded" : ", loaded"));
            }
            return !refused;
        }

        /** One entry: denied in the answer exactly when the reference denies it. */
        void entry(String what, boolean deniedInAnswer, Rule rule) {
            judged++;
            denied += rule.allowed() ? 0 : 1;
            if (deniedInAnswer == !rule.allowed()) {
                return;
            }
            throw new CheckFailure(NAME, "node " + nodeId + " answered " + call + " of " + caller + ": " + what
                    + " is " + (deniedInAnswer ? "DENIED" : "ALLOWED") + " in the answer, but Kafka's "
                    + "StandardAuthorizer " + (rule.allowed() ? "ALLOWS" : "DENIES") + " " + rule.need().get() + " on the "
                    + "ACLs of " + imageName + " at offset " + image.lastCommittedOffset() + "; metaquorum's "
                    + "authorizer: " + rule.explained().get() + "; the image's ACLs: " + aclsText(image.acls()));
        }

        /**
         * CreateAcls / DeleteAcls / AlterUserScramCredentials: CLUSTER_AUTHORIZATION_FAILED exactly when ALTER on
         * the cluster is denied.
         */
        void clusterAlterWrite(String what, ErrorCode code) {
            if (decided(what, code, ErrorCode.CLUSTER_AUTHORIZATION_FAILED)) {
                entry(what, code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED, cluster(AclOperation.ALTER));
            }
        }

        /** A listing holds exactly the image's topics the caller may DESCRIBE. */
        void listing(ListTopicsResponse listed) {
            TreeSet<String> shown = new TreeSet<>();
            for (ListedTopic topic : listed.getTopicsList()) {
                shown.add(topic.getName());
            }
            List<String> names = new ArrayList<>();
            for (Iterator<TopicImage> topics = image.topics().topicsFrom(""); topics.hasNext(); ) {
                names.add(topics.next().name());
            }
            for (String name : names) {
                entry("topic '" + name + "' in the listing", !shown.contains(name), topic(AclOperation.DESCRIBE, name));
            }
            shown.removeAll(names);
            if (!shown.isEmpty()) {
                throw new CheckFailure(NAME, "node " + nodeId + " answered " + call + " of " + caller + " listing "
                        + shown + ", which " + imageName + " at offset " + image.lastCommittedOffset() + " lacks");
            }
        }
    }

    /** The ACLs in id order, as {@code ALLOW User:* ALL TOPIC PREFIXED 'topic-' from *}. */
    static String aclsText(AclsImage acls) {
        List<String> lines = new ArrayList<>();
        for (AccessControlEntryRecord acl : acls.sortedById()) {
            lines.add(PermissionType.fromCode(acl.getPermissionType()).orElseThrow() + " " + acl.getPrincipal() + " "
                    + AclOperation.fromCode(acl.getOperation()).orElseThrow() + " "
                    + ResourceType.fromCode(acl.getResourceType()).orElseThrow() + " "
                    + PatternType.fromCode(acl.getPatternType()).orElseThrow() + " '" + acl.getResourceName()
                    + "' from " + acl.getHost());
        }
        return lines.toString();
    }
}
