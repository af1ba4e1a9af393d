package io.metaquorum.server.controller;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.raft.RaftNode;
import java.util.function.Supplier;

/** The gateway of a controller node: its event loop, its loader's image, its raft node's view of the leader. */
public final class NodeControllerGateway implements ControllerGateway {
    private final int nodeId;
    private final ControllerEventLoop loop;
    private final MetadataLoader loader;
    private final Supplier<RaftNode> raft;

    public NodeControllerGateway(int nodeId, ControllerEventLoop loop, MetadataLoader loader, Supplier<RaftNode> raft) {
        this.nodeId = nodeId;
        this.loop = loop;
        this.loader = loader;
        this.raft = raft;
    }

    @Override
    public int nodeId() {
        return nodeId;
    }

    @Override
    public boolean isActive() {
        return loop.isActive();
    }

    @Override
    public boolean submit(ControllerOperation operation) {
        return loop.submit(operation);
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
