package io.metaquorum.metadata.acl;

/**
 * Who may (or may not) do what from where (Kafka's {@code AccessControlEntry}): a principal
 * {@code TYPE:NAME} ({@code User:*} for every user), a host ({@code *} for every host), an
 * operation and ALLOW or DENY. {@link #toString} is Kafka's, which {@code mq-acls} prints.
 */
public record AccessControlEntry(String principal, String host, AclOperation operation,
                                 PermissionType permissionType) {
    /** The host that stands for every host. */
    public static final String WILDCARD_HOST = "*";

    @Override
    public String toString() {
        return "(principal=" + principal + ", host=" + host + ", operation=" + operation + ", permissionType="
                + permissionType + ")";
    }
}
