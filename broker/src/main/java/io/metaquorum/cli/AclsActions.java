package io.metaquorum.cli;

import io.metaquorum.client.AdminClient;
import io.metaquorum.metadata.acl.AccessControlEntry;
import io.metaquorum.metadata.acl.AclBinding;
import io.metaquorum.metadata.acl.ResourcePattern;
import io.metaquorum.metadata.acl.StoredAcl;
import io.metaquorum.protocol.AclCreationResult;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.DeleteAclsFilterResult;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DescribedAcl;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.raft.TopicIds;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code mq-acls} does once its flags are checked: the ACLs, filters or question are
 * built first ({@link #prepare}, so that a bad flag asks no node), then one request per
 * action: --add is one CreateAcls, --remove one DeleteAcls of the filters the user confirmed,
 * --list one DescribeAcls per resource (one of every ACL without a resource), --explain one
 * ExplainAcl.
 */
final class AclsActions {
    private final AclsTool options;
    private final PrintWriter out;
    private final PrintWriter err;
    private final RemoveConfirmation confirmation;
    private List<ResourcePattern> resources = List.of();
    private List<AccessControlEntry> entries = List.of();
    private List<AclBinding> bindings = List.of();
    private ExplainAclRequest question;

    AclsActions(AclsTool options, PrintWriter out, PrintWriter err, RemoveConfirmation confirmation) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.confirmation = confirmation;
    }

    /** Builds what {@code action} sends; an {@link AdminError} when the flags make no valid ACL. */
    void prepare(AclsTool.Action action) {
        resources = AclArguments.resources(options.topics, options.groups, options.cluster, options.patternType());
        if (action == AclsTool.Action.LIST) {
            return;
        }
        if (action == AclsTool.Action.EXPLAIN) {
            question = AclArguments.question(options.principal, options.explainHost(),
                    AclArguments.operations(options.operations).get(0), resources.get(0));
            return;
        }
        entries = AclArguments.entries(options.allowPrincipals, options.allowHosts, options.denyPrincipals,
                options.denyHosts, AclArguments.operations(options.operations));
        if (action == AclsTool.Action.ADD) {
            bindings = AclArguments.bindings(resources, entries);
        } else {
            AclArguments.checkOperations(resources, entries);
        }
    }

    int run(AclsTool.Action action, AdminClient client) {
        return switch (action) {
            case ADD -> add(client);
            case REMOVE -> remove(client);
            case LIST -> list(client);
            case EXPLAIN -> explain(client);
        };
    }

    /** The node's answer as it gives it; allowed or denied, the question was answered: exit 0. */
    private int explain(AdminClient client) {
        ExplainAclResponse answer = client.explainAcl(question, TopicsTool.CALL_TIMEOUT_MS);
        if (options.json) {
            out.println(AclDescriptions.explanationJson(answer));
        } else {
            AclDescriptions.explanationLines(answer).forEach(out::println);
        }
        return CommandLines.EXIT_OK;
    }

    private int add(AdminClient client) {
        Map<ResourcePattern, List<AccessControlEntry>> byResource = new LinkedHashMap<>();
        bindings.forEach(b -> byResource.computeIfAbsent(b.pattern(), r -> new ArrayList<>()).add(b.entry()));
        byResource.forEach((resource, list) -> out.print(AclDescriptions.block("Adding ACLs for resource", resource,
                list)));
        out.flush();
        CreateAclsResponse response = client.createAcls(bindings.stream().map(AclArguments::creation).toList(),
                TopicsTool.CALL_TIMEOUT_MS);
        int failures = 0;
        for (int i = 0; i < response.getResultsCount(); i++) {
            AclCreationResult result = response.getResults(i);
            if (result.getErrorCode() != ErrorCode.NONE) {
                failures++;
                AclBinding binding = bindings.get(i);
                err.println(AdminError.line(result.getErrorCode(), result.getErrorCodeValue(),
                        binding.pattern() + " " + binding.entry() + ": " + result.getErrorMessage()));
            }
        }
        return failures == 0 ? CommandLines.EXIT_OK : CommandLines.EXIT_FAILURE;
    }

    private int remove(AdminClient client) {
        List<AclFilter> filters = new ArrayList<>();
        for (ResourcePattern resource : resources) {
            if (!confirmed(resource)) {
                continue;
            }
            if (entries.isEmpty()) {
                filters.add(AclArguments.filter(resource, Optional.empty()));
            } else {
                entries.forEach(entry -> filters.add(AclArguments.filter(resource, Optional.of(entry))));
            }
        }
        if (filters.isEmpty()) {
            return CommandLines.EXIT_OK;
        }
        DeleteAclsResponse response = client.deleteAcls(filters, TopicsTool.CALL_TIMEOUT_MS);
        Set<String> errors = new LinkedHashSet<>();
        Map<String, StoredAcl> deleted = new LinkedHashMap<>();
        for (DeleteAclsFilterResult result : response.getFilterResultsList()) {
            if (result.getErrorCode() != ErrorCode.NONE) {
                // A request refused whole gives every filter the same message: say it once.
                errors.add(AdminError.line(result.getErrorCode(), result.getErrorCodeValue(),
                        result.getErrorMessage()));
            }
            for (DescribedAcl acl : result.getMatchingAclsList()) {
                deleted.putIfAbsent(TopicIds.toBase64(acl.getId()), AclDescriptions.stored(acl));
            }
        }
        List<StoredAcl> removed = new ArrayList<>(deleted.values());
        removed.sort(StoredAcl.LISTING_ORDER);
        out.print(AclDescriptions.text("Removed ACLs for resource", removed));
        if (removed.isEmpty() && errors.isEmpty()) {
            out.println("No ACL matched; nothing was removed.");
        }
        errors.forEach(err::println);
        return errors.isEmpty() ? CommandLines.EXIT_OK : CommandLines.EXIT_FAILURE;
    }

    /** kafka-acls.sh's question for {@code resource}; --force answers yes, no terminal refuses. */
    private boolean confirmed(ResourcePattern resource) {
        if (options.force) {
            return true;
        }
        String question = entries.isEmpty()
                ? "Are you sure you want to delete all ACLs for resource filter `" + resource + "`?"
                : "Are you sure you want to remove ACLs: \n " + String.join("\n", entries.stream()
                        .map(e -> "\t" + e).toList()) + " \n from resource filter `" + resource + "`?";
        return confirmation.ask(question).orElseThrow(() -> new AdminError(ErrorCode.INVALID_REQUEST,
                "--remove asks before it deletes, and there is no terminal to ask on; pass --force to remove "
                        + "without asking."));
    }

    private int list(AdminClient client) {
        List<AclFilter> filters = resources.isEmpty() ? List.of(AclArguments.everything())
                : resources.stream().map(r -> AclArguments.filter(r, Optional.empty())).toList();
        Map<String, StoredAcl> found = new LinkedHashMap<>();
        for (AclFilter filter : filters) {
            for (DescribedAcl acl : client.describeAcls(filter, TopicsTool.CALL_TIMEOUT_MS).getAclsList()) {
                found.putIfAbsent(TopicIds.toBase64(acl.getId()), AclDescriptions.stored(acl));
            }
        }
        List<StoredAcl> acls = new ArrayList<>(found.values());
        acls.sort(StoredAcl.LISTING_ORDER);
        if (options.json) {
            out.println(AclDescriptions.json(acls));
        } else {
            out.print(AclDescriptions.text("Current ACLs for resource", acls));
        }
        return CommandLines.EXIT_OK;
    }
}
