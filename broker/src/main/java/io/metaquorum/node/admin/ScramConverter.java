package io.metaquorum.node.admin;

import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.controller.ScramControlManager.AlterResult;
import io.metaquorum.metadata.controller.ScramControlManager.Deletion;
import io.metaquorum.metadata.controller.ScramControlManager.Upsertion;
import io.metaquorum.metadata.controller.ScramControlManager.UserResult;
import io.metaquorum.metadata.controller.ScramDescriptions;
import io.metaquorum.metadata.controller.ScramDescriptions.UserDescription;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.AlterUserScramCredentialsResult;
import io.metaquorum.protocol.DescribeUserScramCredentialsRequest;
import io.metaquorum.protocol.DescribeUserScramCredentialsResponse;
import io.metaquorum.protocol.DescribeUserScramCredentialsResult;
import io.metaquorum.protocol.ScramCredentialInfo;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * AlterUserScramCredentials (through the controller) and DescribeUserScramCredentials (from an
 * image) between the wire and the controller's types. Nothing here reads a salt or key back
 * out: a description carries mechanisms and iterations only.
 */
final class ScramConverter {
    private ScramConverter() {
    }

    static List<Deletion> deletions(AlterUserScramCredentialsRequest request) {
        return request.getDeletionsList().stream().map(d -> new Deletion(d.getName(), d.getMechanism())).toList();
    }

    static List<Upsertion> upsertions(AlterUserScramCredentialsRequest request) {
        return request.getUpsertionsList().stream().map(u -> new Upsertion(u.getName(), u.getMechanism(),
                u.getIterations(), u.getSalt(), u.getSaltedPassword())).toList();
    }

    static AlterUserScramCredentialsResponse alteredToProto(AlterResult result, int controllerId) {
        AlterUserScramCredentialsResponse.Builder out = AlterUserScramCredentialsResponse.newBuilder()
                .setHeader(ResponseHeaders.ofWrite(result.results().stream().map(UserResult::error).toList(),
                        controllerId))
                .setCommitOffset(result.commitOffset());
        result.results().forEach(r -> out.addResults(result(r.user(), r.error())));
        return out.build();
    }

    /** The whole request refused with {@code error}: one result per user named, as Kafka answers it. */
    static AlterUserScramCredentialsResponse alterFailed(AlterUserScramCredentialsRequest request, ApiError error,
                                                        int controllerId) {
        AlterUserScramCredentialsResponse.Builder out = AlterUserScramCredentialsResponse.newBuilder()
                .setHeader(ResponseHeaders.header(error, controllerId, ResponseHeaders.NO_OFFSET))
                .setCommitOffset(ResponseHeaders.NO_OFFSET);
        Set<String> users = new LinkedHashSet<>();
        request.getDeletionsList().forEach(d -> users.add(d.getName()));
        request.getUpsertionsList().forEach(u -> users.add(u.getName()));
        users.forEach(user -> out.addResults(result(user, error)));
        return out.build();
    }

    private static AlterUserScramCredentialsResult result(String user, ApiError error) {
        return AlterUserScramCredentialsResult.newBuilder().setUser(user).setErrorCode(error.code())
                .setErrorMessage(error.message()).build();
    }

    static DescribeUserScramCredentialsResponse describe(DescribeUserScramCredentialsRequest request,
                                                         MetadataImage image, int controllerId) {
        DescribeUserScramCredentialsResponse.Builder out = DescribeUserScramCredentialsResponse.newBuilder()
                .setHeader(ResponseHeaders.ok(controllerId, image.lastCommittedOffset()));
        for (UserDescription user : ScramDescriptions.describe(image.scram(), request.getUsersList())) {
            DescribeUserScramCredentialsResult.Builder one = DescribeUserScramCredentialsResult.newBuilder()
                    .setUser(user.user()).setErrorCode(user.error().code()).setErrorMessage(user.error().message());
            user.credentials().forEach(c -> one.addCredentialInfos(ScramCredentialInfo.newBuilder()
                    .setMechanism(c.mechanism().type()).setIterations(c.iterations())));
            out.addResults(one);
        }
        return out.build();
    }
}
