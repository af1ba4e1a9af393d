package io.metaquorum.node.controller;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import java.util.function.IntSupplier;

/**
 * The gateway of a node without the controller role (a broker): never active, so every
 * write is forwarded; reads come from its own loader's image.
 */
public final class ObserverGateway implements ControllerGateway {
    private final int nodeId;
    private final MetadataLoader loader;
    private final IntSupplier knownLeaderId;

    /** @param knownLeaderId the raft leader this node knows, -1 when none */
    public ObserverGateway(int nodeId, MetadataLoader loader, IntSupplier knownLeaderId) {
        this.nodeId = nodeId;
        this.loader = loader;
        this.knownLeaderId = knownLeaderId;
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
        return knownLeaderId.getAsInt();
    }
}
