package io.metaquorum.server.admin;

import io.grpc.MethodDescriptor;
import io.metaquorum.node.admin.AdminMethod;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.LifecycleRequests;
import io.metaquorum.protocol.AdminServiceGrpc;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import java.util.List;

/** The gRPC method of each write that may be forwarded. */
final class GrpcMethods {
    private record Binding<Q, R>(AdminMethod<Q, R> method, MethodDescriptor<Q, R> descriptor) {
    }

    private static final List<Binding<?, ?>> BINDINGS = List.of(
            new Binding<>(AdminRequests.CREATE_TOPICS, AdminServiceGrpc.getCreateTopicsMethod()),
            new Binding<>(AdminRequests.DELETE_TOPICS, AdminServiceGrpc.getDeleteTopicsMethod()),
            new Binding<>(AdminRequests.CREATE_PARTITIONS, AdminServiceGrpc.getCreatePartitionsMethod()),
            new Binding<>(AdminRequests.INCREMENTAL_ALTER_CONFIGS,
                    AdminServiceGrpc.getIncrementalAlterConfigsMethod()),
            new Binding<>(AdminRequests.CREATE_ACLS, AdminServiceGrpc.getCreateAclsMethod()),
            new Binding<>(AdminRequests.DELETE_ACLS, AdminServiceGrpc.getDeleteAclsMethod()),
            new Binding<>(AdminRequests.ALTER_USER_SCRAM_CREDENTIALS,
                    AdminServiceGrpc.getAlterUserScramCredentialsMethod()),
            new Binding<>(LifecycleRequests.REGISTER_BROKER, BrokerLifecycleServiceGrpc.getRegisterBrokerMethod()),
            new Binding<>(LifecycleRequests.BROKER_HEARTBEAT, BrokerLifecycleServiceGrpc.getBrokerHeartbeatMethod()),
            new Binding<>(LifecycleRequests.CONTROLLED_SHUTDOWN,
                    BrokerLifecycleServiceGrpc.getControlledShutdownMethod()));

    private GrpcMethods() {
    }

    /** The descriptor bound to {@code method}; each binding pairs the same request and response types. */
    @SuppressWarnings("unchecked")
    static <Q, R> MethodDescriptor<Q, R> descriptor(AdminMethod<Q, R> method) {
        for (Binding<?, ?> binding : BINDINGS) {
            if (binding.method() == method) {
                return (MethodDescriptor<Q, R>) binding.descriptor();
            }
        }
        throw new IllegalArgumentException("no gRPC method for " + method.name());
    }
}
