package io.metaquorum.metadata.controller;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.acl.AclBinding;
import io.metaquorum.metadata.acl.AclBindingFilter;
import io.metaquorum.metadata.acl.AclRules;
import io.metaquorum.metadata.acl.StoredAcl;
import io.metaquorum.metadata.image.AclsImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RemoveAccessControlEntryRecord;
import io.metaquorum.protocol.Uuid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * ACLs (Kafka's {@code AclControlManager}): CreateAcls and DeleteAcls decided on the
 * decision image, as records and a response (docs/engineering-rules.md rule 4). DescribeAcls
 * is a read, answered from a node's own image ({@link AclsImage#matching}).
 *
 * <p>CreateAcls answers each creation on its own: an invalid one ({@link AclRules}) is
 * INVALID_REQUEST, an ACL identical to one that exists (or to an earlier creation of the same
 * request) succeeds and writes nothing, any other gets an AccessControlEntryRecord whose id is
 * a function of the offset it lands at ({@link AclIds}). DeleteAcls answers each filter with
 * the ACLs it matched and removes each matched ACL once; if the filters together match more
 * than {@link #DELETE_ACLS_MATCHES_MAX}, the request is refused whole and writes nothing, where
 * Kafka deletes part of them and answers UNKNOWN_SERVER_ERROR (KAFKA-19411).
 *
 * <p>Both answers carry the offset of their commit: the last record written, or the end of
 * the log they were decided on when they wrote nothing (the controller answers once that
 * offset commits), -1 when refused whole.
 */
public final class AclControlManager {
    /**
     * ACLs one DeleteAcls may remove: below the raft batch ({@code appendRecordsMax}, 8192
     * by default), because the removals go in one atomic append.
     */
    public static final int DELETE_ACLS_MATCHES_MAX = 4_096;
    /** The commit offset of a request refused whole: it changed nothing. */
    public static final long NO_COMMIT = -1;

    private final ControllerState state;

    public AclControlManager(ControllerState state) {
        this.state = state;
    }

    /** One result per creation, in request order, and the offset of the commit. */
    public record CreateAclsResult(List<ApiError> results, long commitOffset) {
        public CreateAclsResult {
            results = List.copyOf(results);
        }
    }

    /** A filter's error, or the ACLs it deleted. */
    public record DeleteAclsFilterResult(ApiError error, List<StoredAcl> deleted) {
        public DeleteAclsFilterResult {
            deleted = List.copyOf(deleted);
        }

        static DeleteAclsFilterResult failed(ApiError error) {
            return new DeleteAclsFilterResult(error, List.of());
        }
    }

    /** One result per filter, in request order, and the offset of the commit. */
    public record DeleteAclsResult(List<DeleteAclsFilterResult> results, long commitOffset) {
        public DeleteAclsResult {
            results = List.copyOf(results);
        }
    }

    /**
     * @param nextOffset the offset the first record will land at (the controller appends
     *                   there; {@link AclIds} derives the ids from it)
     */
    public ControllerResult<CreateAclsResult> createAcls(List<AclBinding> creations, long nextOffset) {
        AclsImage acls = state.image().acls();
        Set<AclBinding> present = new LinkedHashSet<>();
        acls.byId().values().forEach(record -> present.add(AclBinding.fromRecord(record)));
        List<ApiError> results = new ArrayList<>(creations.size());
        List<MetadataRecord> records = new ArrayList<>();
        for (AclBinding binding : creations) {
            Optional<String> bad = AclRules.check(binding);
            if (bad.isPresent()) {
                results.add(ApiError.of(ErrorCode.INVALID_REQUEST, bad.get()));
                continue;
            }
            if (present.add(binding)) {
                long offset = nextOffset + records.size();
                Uuid id = AclIds.atOffset(offset);
                Invariants.check(acls.byId().get(UuidKey.of(id)).isEmpty(),
                        "ACL id for offset %d is in use: an offset was reused", offset);
                records.add(MetadataRecord.newBuilder().setAccessControlEntry(binding.toRecord(id)).build());
            }
            results.add(ApiError.NONE);
        }
        return ControllerResult.of(records, new CreateAclsResult(results, nextOffset + records.size() - 1));
    }

    /** @param nextOffset the offset the first record will land at */
    public ControllerResult<DeleteAclsResult> deleteAcls(List<AclBindingFilter> filters, long nextOffset) {
        AclsImage acls = state.image().acls();
        List<Optional<List<StoredAcl>>> matches = new ArrayList<>(filters.size());
        List<ApiError> errors = new ArrayList<>(filters.size());
        Map<UuidKey, StoredAcl> deleted = new LinkedHashMap<>();
        for (AclBindingFilter filter : filters) {
            Optional<String> unknown = filter.unknownField();
            if (unknown.isPresent()) {
                errors.add(ApiError.of(ErrorCode.INVALID_REQUEST, "The filter's " + unknown.get()
                        + " is UNKNOWN; ANY matches every one."));
                matches.add(Optional.empty());
                continue;
            }
            List<StoredAcl> matched = acls.matching(filter);
            matched.forEach(acl -> deleted.putIfAbsent(UuidKey.of(acl.id()), acl));
            errors.add(ApiError.NONE);
            matches.add(Optional.of(matched));
        }
        if (deleted.size() > DELETE_ACLS_MATCHES_MAX) {
            ApiError tooMany = ApiError.of(ErrorCode.INVALID_REQUEST, "The filters match " + deleted.size()
                    + " ACLs; one DeleteAcls deletes at most " + DELETE_ACLS_MATCHES_MAX
                    + " (DELETE_ACLS_MATCHES_MAX), so none was deleted. Narrow the filters or delete in several "
                    + "requests.");
            List<DeleteAclsFilterResult> refused = new ArrayList<>(filters.size());
            errors.forEach(error -> refused.add(DeleteAclsFilterResult.failed(error.isSuccess() ? tooMany : error)));
            return ControllerResult.withoutRecords(new DeleteAclsResult(refused, NO_COMMIT));
        }
        List<DeleteAclsFilterResult> results = new ArrayList<>(filters.size());
        for (int i = 0; i < filters.size(); i++) {
            results.add(matches.get(i).map(m -> new DeleteAclsFilterResult(ApiError.NONE, m))
                    .orElse(DeleteAclsFilterResult.failed(errors.get(i))));
        }
        List<MetadataRecord> records = new ArrayList<>(deleted.size());
        for (UuidKey id : deleted.keySet()) {
            records.add(MetadataRecord.newBuilder().setRemoveAccessControlEntry(
                    RemoveAccessControlEntryRecord.newBuilder().setId(id.toUuid())).build());
        }
        return ControllerResult.of(records, new DeleteAclsResult(results, nextOffset + records.size() - 1));
    }
}
