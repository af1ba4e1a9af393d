package io.metaquorum.sim.system.workload;

import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigOp;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource;
import io.metaquorum.metadata.controller.ConfigurationControlManager.OpType;
import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import io.metaquorum.sim.system.admin.AdminInput;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** What the linearizability history records of one item of an {@link AdminCall}. */
final class HistoryInputs {
    private HistoryInputs() {
    }

    /**
     * @param defaultPartitions {@code num.partitions}, the count a topic created with -1 gets
     */
    static AdminInput of(AdminCall call, String item, int defaultPartitions) {
        if (call instanceof AdminCall.CreateTopics create) {
            CreateTopicsRequest.Topic topic = create.request().topics().stream().filter(t -> t.name().equals(item))
                    .findFirst().orElseThrow();
            int partitions = !topic.assignments().isEmpty() ? topic.assignments().size()
                    : topic.numPartitions() == CreateTopicsRequest.DEFAULT ? defaultPartitions : topic.numPartitions();
            TreeMap<String, String> configs = new TreeMap<>();
            topic.configs().forEach(c -> configs.put(c.name(), c.value()));
            return new AdminInput.CreateTopic(item, partitions, configs, create.request().validateOnly());
        }
        if (call instanceof AdminCall.DeleteTopics) {
            return new AdminInput.DeleteTopic(item);
        }
        if (call instanceof AdminCall.CreatePartitions grow) {
            CreatePartitionsTopic topic = grow.topics().stream().filter(t -> t.name().equals(item)).findFirst()
                    .orElseThrow();
            return new AdminInput.CreatePartitions(item, topic.count());
        }
        if (call instanceof AdminCall.AlterConfigs alter) {
            AlterConfigsResource resource = alter.resources().stream().filter(r -> r.resource().name().equals(item))
                    .findFirst().orElseThrow();
            List<AdminInput.ConfigChange> changes = new ArrayList<>();
            for (AlterConfigOp op : resource.ops()) {
                changes.add(new AdminInput.ConfigChange(op.name(), op.op() == OpType.SET ? op.value() : null));
            }
            return new AdminInput.AlterConfigs(item, changes);
        }
        if (call instanceof AdminCall.DescribeTopic) {
            return new AdminInput.DescribeTopic(item);
        }
        return new AdminInput.ListTopics();
    }
}
