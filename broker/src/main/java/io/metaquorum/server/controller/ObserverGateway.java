package io.metaquorum.server.controller;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.raft.RaftNode;
import java.util.function.Supplier;

/**
 * The gateway of a node without the controller role (a broker): never active, so every
 * write is forwarded; reads come from its own loader's image.
 */
public final class ObserverGateway implements ControllerGateway {
    private final int nodeId;
    private final MetadataLoader loader;
    private final Supplier<RaftNode> raft;

    public ObserverGateway(int nodeId, MetadataLoader loader, Supplier<RaftNode> raft) {
        this.nodeId = nodeId;
        this.loader = loader;
        this.raft = raft;
    }

    @Override
    public int nodeId() {
        return nodeId;
    }

    @Override
    public boolean isActive() {
        return false;
    }

    @Override
    public boolean submit(ControllerOperation operation) {
        return false;
    }

    @Override
    public MetadataImage committedImage() {
        return loader.image();
    }

    @Override
    public int knownControllerId() {
        RaftNode node = raft.get();
        return node == null ? -1 : node.status().leaderId();
    }
}
