package io.metaquorum.node.admin;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.protocol.AlterConfigsResourceResult;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreatePartitionsTopic;
import io.metaquorum.protocol.CreatePartitionsTopicResult;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.TopicRef;
import io.metaquorum.raft.TopicIds;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which entries of a topic or config write the caller may make, decided on the controller's
 * thread against its committed image before the controller sees the request (so nothing is
 * validated, and nothing about existence is told, for an entry the caller may not touch), and
 * the answer put back together in request order ({@link BatchMerge}). The rules are Kafka's
 * ({@link io.metaquorum.node.access.RpcAccessTable}).
 */
final class AuthorizedWrites {
    static final String TOPIC_DENIED = "Topic authorization failed.";
    static final String CLUSTER_DENIED = "Cluster authorization failed.";

    private AuthorizedWrites() {
    }

    /** CREATE on the cluster, else CREATE on each topic. */
    static BitSet createTopics(CreateTopicsRequest request, RequestAccess access) {
        BitSet denied = new BitSet();
        if (access.holdsOnCluster(AclOperation.CREATE)) {
            return denied;
        }
        for (int i = 0; i < request.getTopicsCount(); i++) {
            if (!access.allowsTopic(AclOperation.CREATE, request.getTopics(i).getName())) {
                denied.set(i);
            }
        }
        return denied;
    }

    static CreateTopicsRequest allowed(CreateTopicsRequest request, BitSet denied) {
        return request.toBuilder().clearTopics().addAllTopics(BatchMerge.allowed(request.getTopicsList(), denied))
                .build();
    }

    /**
     * The controller's answer with the denied topics put back, and each created topic's id,
     * counts and configs hidden when the caller may not DESCRIBE_CONFIGS it (as Kafka answers).
     */
    static CreateTopicsResponse merged(CreateTopicsRequest request, BitSet denied, CreateTopicsResponse decided,
                                       RequestAccess access) {
        List<CreatableTopicResult> results = BatchMerge.merge(request.getTopicsList(), denied,
                CreatableTopic::getName, decided.getTopicsList(), CreatableTopicResult::getName,
                t -> CreatableTopicResult.newBuilder().setName(t.getName()).setTopicId(TopicIds.ZERO)
                        .setErrorCode(ErrorCode.TOPIC_AUTHORIZATION_FAILED).setErrorMessage(TOPIC_DENIED)
                        .setNumPartitions(-1).setReplicationFactor(-1).build(), true);
        CreateTopicsResponse.Builder out = decided.toBuilder().clearTopics();
        for (CreatableTopicResult r : results) {
            boolean hidden = r.getErrorCode() == ErrorCode.NONE
                    && !access.holdsOnTopic(AclOperation.DESCRIBE_CONFIGS, r.getName());
            out.addTopics(hidden ? r.toBuilder().setTopicId(TopicIds.ZERO).setNumPartitions(-1)
                    .setReplicationFactor(-1).clearConfigs()
                    .setTopicConfigErrorCode(ErrorCode.TOPIC_AUTHORIZATION_FAILED).build() : r);
        }
        return out.build();
    }

    /**
     * DELETE on the cluster, else Kafka's per-topic rule. A topic named by name needs DESCRIBE
     * on it before anything is told: without it, TOPIC_AUTHORIZATION_FAILED; with it, a topic
     * that does not exist is UNKNOWN_TOPIC_OR_PARTITION and one that does needs DELETE too. A
     * topic named by an id needs DELETE on the name the id has; an id no topic has is
     * UNKNOWN_TOPIC_ID: an id tells nothing about a name.
     *
     * <p>"Does not exist" is the committed image's word, the one the rights are decided on, so a
     * topic missing there is answered here and never reaches the controller without DELETE: the
     * controller's own image may already hold it, created and not yet committed, and would delete
     * it for a caller who may not ({@link #deleteRefusal} names what is answered).
     */
    static BitSet deleteTopics(DeleteTopicsRequest request, RequestAccess access) {
        BitSet denied = new BitSet();
        if (access.holdsOnCluster(AclOperation.DELETE)) {
            return denied;
        }
        for (int i = 0; i < request.getTopicsCount(); i++) {
            TopicRef ref = request.getTopics(i);
            if (ref.hasName() ? !deletableByName(ref.getName(), access) : !deletableById(ref, access)) {
                denied.set(i);
            }
        }
        return denied;
    }

    private static boolean deletableByName(String name, RequestAccess access) {
        return access.allowsTopic(AclOperation.DESCRIBE, name) && access.image().topics().topic(name) != null
                && access.allowsTopic(AclOperation.DELETE, name);
    }

    private static boolean deletableById(TopicRef ref, RequestAccess access) {
        String name = nameOf(ref, access);
        return name != null && access.allowsTopic(AclOperation.DELETE, name);
    }

    /** The answer to a topic {@link #deleteTopics} kept from the controller. */
    private static DeletableTopicResult deleteRefusal(TopicRef ref, RequestAccess access) {
        DeletableTopicResult.Builder result = DeletableTopicResult.newBuilder()
                .setName(ref.hasName() ? ref.getName() : describableName(ref, access))
                .setTopicId(ref.hasTopicId() ? ref.getTopicId() : TopicIds.ZERO);
        if (ref.hasName() && access.allowsTopic(AclOperation.DESCRIBE, ref.getName())
                && access.image().topics().topic(ref.getName()) == null) {
            return result.setErrorCode(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                    .setErrorMessage("The topic '" + ref.getName() + "' does not exist.").build();
        }
        if (!ref.hasName() && nameOf(ref, access) == null) {
            return result.setErrorCode(ErrorCode.UNKNOWN_TOPIC_ID)
                    .setErrorMessage("No topic has the id " + TopicIds.toBase64(ref.getTopicId()) + ".").build();
        }
        return result.setErrorCode(ErrorCode.TOPIC_AUTHORIZATION_FAILED).setErrorMessage(TOPIC_DENIED).build();
    }

    private static String nameOf(TopicRef ref, RequestAccess access) {
        TopicImage topic = access.image().topics().topic(UuidKey.of(ref.getTopicId()));
        return topic == null ? null : topic.name();
    }

    static DeleteTopicsRequest allowed(DeleteTopicsRequest request, BitSet denied) {
        return request.toBuilder().clearTopics().addAllTopics(BatchMerge.allowed(request.getTopicsList(), denied))
                .build();
    }

    /**
     * The controller's answer with the denied topics put back. A topic refused by id is named
     * only to a caller that may DESCRIBE it, as Kafka answers: the name an id has is the topic's
     * to tell.
     */
    static DeleteTopicsResponse merged(DeleteTopicsRequest request, BitSet denied, DeleteTopicsResponse decided,
                                       RequestAccess access) {
        Set<String> askedByName = new TreeSet<>();
        request.getTopicsList().stream().filter(TopicRef::hasName).forEach(ref -> askedByName.add(ref.getName()));
        List<DeletableTopicResult> results = BatchMerge.merge(request.getTopicsList(), denied,
                ref -> ref.hasName() ? ref.getName() : TopicIds.toBase64(ref.getTopicId()), decided.getTopicsList(),
                r -> askedByName.contains(r.getName()) ? r.getName() : TopicIds.toBase64(r.getTopicId()),
                ref -> deleteRefusal(ref, access), false);
        return decided.toBuilder().clearTopics().addAllTopics(results).build();
    }

    private static String describableName(TopicRef ref, RequestAccess access) {
        String name = nameOf(ref, access);
        return name != null && access.holdsOnTopic(AclOperation.DESCRIBE, name) ? name : "";
    }

    /** ALTER on each topic. */
    static BitSet createPartitions(CreatePartitionsRequest request, RequestAccess access) {
        BitSet denied = new BitSet();
        for (int i = 0; i < request.getTopicsCount(); i++) {
            if (!access.allowsTopic(AclOperation.ALTER, request.getTopics(i).getName())) {
                denied.set(i);
            }
        }
        return denied;
    }

    static CreatePartitionsRequest allowed(CreatePartitionsRequest request, BitSet denied) {
        return request.toBuilder().clearTopics().addAllTopics(BatchMerge.allowed(request.getTopicsList(), denied))
                .build();
    }

    static CreatePartitionsResponse merged(CreatePartitionsRequest request, BitSet denied,
                                           CreatePartitionsResponse decided) {
        List<CreatePartitionsTopicResult> results = BatchMerge.merge(request.getTopicsList(), denied,
                CreatePartitionsTopic::getName, decided.getTopicsList(), CreatePartitionsTopicResult::getName,
                t -> CreatePartitionsTopicResult.newBuilder().setName(t.getName())
                        .setErrorCode(ErrorCode.TOPIC_AUTHORIZATION_FAILED).setErrorMessage(TOPIC_DENIED).build(),
                false);
        return decided.toBuilder().clearTopics().addAllTopics(results).build();
    }

    /** ALTER_CONFIGS on each topic, or on the cluster for a broker's configs. */
    static BitSet alterConfigs(IncrementalAlterConfigsRequest request, RequestAccess access) {
        BitSet denied = new BitSet();
        for (int i = 0; i < request.getResourcesCount(); i++) {
            if (!ConfigAccess.allows(access, AclOperation.ALTER_CONFIGS, request.getResources(i).getResourceType(),
                    request.getResources(i).getResourceName())) {
                denied.set(i);
            }
        }
        return denied;
    }

    static IncrementalAlterConfigsRequest allowed(IncrementalAlterConfigsRequest request, BitSet denied) {
        return request.toBuilder().clearResources()
                .addAllResources(BatchMerge.allowed(request.getResourcesList(), denied)).build();
    }

    static IncrementalAlterConfigsResponse merged(IncrementalAlterConfigsRequest request, BitSet denied,
                                                  IncrementalAlterConfigsResponse decided) {
        List<AlterConfigsResourceResult> results = BatchMerge.merge(request.getResourcesList(), denied,
                r -> r.getResourceType() + "/" + r.getResourceName(), decided.getResultsList(),
                r -> r.getResourceType() + "/" + r.getResourceName(),
                r -> AlterConfigsResourceResult.newBuilder().setResourceType(r.getResourceType())
                        .setResourceName(r.getResourceName()).setErrorCode(ConfigAccess.deniedCode(r.getResourceType()))
                        .setErrorMessage(ConfigAccess.deniedMessage(r.getResourceType())).build(), false);
        return decided.toBuilder().clearResults().addAllResults(results).build();
    }
}
