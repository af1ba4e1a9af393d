package io.metaquorum.node.kafka;

import com.google.protobuf.ByteString;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.DescribeUserScramCredentialsRequest;
import io.metaquorum.protocol.DescribeUserScramCredentialsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ScramCredentialDeletion;
import io.metaquorum.protocol.ScramCredentialUpsertion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.CredentialInfo;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Kafka's AlterUserScramCredentials (api key 51) and DescribeUserScramCredentials (api key 50)
 * over {@link AdminRequests#alterUserScramCredentials} and
 * {@link AdminRequests#describeUserScramCredentials}: the same rights, semantics and codes as
 * the gRPC API. Kafka's admin client salts and hashes the password itself and sends the salted
 * password, which goes to the controller as it came. As with the ACL writes, the commit offset
 * of our answer has no field in Kafka's and is dropped.
 */
public final class ScramApis {
    private ScramApis() {
    }

    /** Adds the two handlers to {@code into}. */
    public static void register(Map<ApiKeys, KafkaApiHandler> into, AdminRequests admin) {
        into.put(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS, (call, request, reply) -> alter(admin, call, request, reply));
        into.put(ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS, (call, request, reply) -> describe(admin, call, request,
                reply));
    }

    private static void alter(AdminRequests admin, KafkaCall call, AbstractRequest request,
                              Consumer<AbstractResponse> reply) {
        AlterUserScramCredentialsRequestData data =
                ((org.apache.kafka.common.requests.AlterUserScramCredentialsRequest) request).data();
        AlterUserScramCredentialsRequest.Builder ours = AlterUserScramCredentialsRequest.newBuilder();
        data.deletions().forEach(d -> ours.addDeletions(ScramCredentialDeletion.newBuilder().setName(d.name())
                .setMechanism(d.mechanism())));
        data.upsertions().forEach(u -> ours.addUpsertions(ScramCredentialUpsertion.newBuilder().setName(u.name())
                .setMechanism(u.mechanism()).setIterations(u.iterations()).setSalt(ByteString.copyFrom(u.salt()))
                .setSaltedPassword(ByteString.copyFrom(u.saltedPassword()))));
        admin.alterUserScramCredentials(ours.build(), call.origin(), answer -> reply.accept(altered(answer)));
    }

    private static AbstractResponse altered(AlterUserScramCredentialsResponse answer) {
        List<AlterUserScramCredentialsResult> results = new ArrayList<>(answer.getResultsCount());
        answer.getResultsList().forEach(r -> results.add(new AlterUserScramCredentialsResult().setUser(r.getUser())
                .setErrorCode(WireErrors.code(r.getErrorCode()))
                .setErrorMessage(WireErrors.message(r.getErrorCode(), r.getErrorMessage()))));
        return new org.apache.kafka.common.requests.AlterUserScramCredentialsResponse(
                new AlterUserScramCredentialsResponseData().setResults(results));
    }

    /** Kafka's null user list (its client's "describe all") and an empty one both mean every user. */
    private static void describe(AdminRequests admin, KafkaCall call, AbstractRequest request,
                                 Consumer<AbstractResponse> reply) {
        DescribeUserScramCredentialsRequestData data =
                ((org.apache.kafka.common.requests.DescribeUserScramCredentialsRequest) request).data();
        DescribeUserScramCredentialsRequest.Builder ours = DescribeUserScramCredentialsRequest.newBuilder();
        if (data.users() != null) {
            data.users().forEach(u -> ours.addUsers(u.name()));
        }
        DescribeUserScramCredentialsResponse answer = admin.describeUserScramCredentials(ours.build(),
                call.origin());
        ErrorCode code = answer.getHeader().getErrorCode();
        List<DescribeUserScramCredentialsResult> results = new ArrayList<>(answer.getResultsCount());
        for (io.metaquorum.protocol.DescribeUserScramCredentialsResult r : answer.getResultsList()) {
            List<CredentialInfo> infos = new ArrayList<>(r.getCredentialInfosCount());
            r.getCredentialInfosList().forEach(i -> infos.add(new CredentialInfo()
                    .setMechanism((byte) i.getMechanism()).setIterations(i.getIterations())));
            results.add(new DescribeUserScramCredentialsResult().setUser(r.getUser())
                    .setErrorCode(WireErrors.code(r.getErrorCode()))
                    .setErrorMessage(WireErrors.message(r.getErrorCode(), r.getErrorMessage()))
                    .setCredentialInfos(infos));
        }
        reply.accept(new org.apache.kafka.common.requests.DescribeUserScramCredentialsResponse(
                new DescribeUserScramCredentialsResponseData().setErrorCode(WireErrors.code(code))
                        .setErrorMessage(WireErrors.message(code, answer.getHeader().getErrorMessage()))
                        .setResults(results)));
    }
}
