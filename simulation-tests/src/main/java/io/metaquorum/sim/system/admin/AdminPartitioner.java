package io.metaquorum.sim.system.admin;

import io.metaquorum.sim.system.admin.AdminInput.ListTopics;
import io.metaquorum.sim.system.admin.AdminInput.NameListed;
import io.metaquorum.sim.system.admin.AdminOutput.Listed;
import io.metaquorum.sim.system.admin.AdminOutput.NameListing;
import io.metaquorum.sim.system.linearizability.Operation;
import io.metaquorum.sim.system.linearizability.Partitioner;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Splits an admin history by topic name: operations on different names commute, so each
 * name's sub-history is checked alone. A list is projected onto every name the history
 * mentions (present with its id, or absent). What that gives up: a list is checked to agree
 * with each name's history, not to be one instant across names (a list that shows a topic
 * created after another was deleted, while neither existed together, passes). A read whose
 * answer is unknown constrains nothing and is dropped.
 */
public final class AdminPartitioner implements Partitioner<AdminInput, AdminOutput> {
    @Override
    public SortedMap<String, List<Operation<AdminInput, AdminOutput>>> partition(
            List<Operation<AdminInput, AdminOutput>> history) {
        TreeSet<String> names = new TreeSet<>();
        for (Operation<AdminInput, AdminOutput> op : history) {
            if (op.input().topic() != null) {
                names.add(op.input().topic());
            }
            if (op.output() instanceof Listed listed) {
                names.addAll(listed.idsByName().keySet());
            }
        }
        SortedMap<String, List<Operation<AdminInput, AdminOutput>>> partitions = new TreeMap<>();
        for (String name : names) {
            partitions.put(name, new ArrayList<>());
        }
        for (Operation<AdminInput, AdminOutput> op : history) {
            if (op.input() instanceof ListTopics) {
                if (op.output() instanceof Listed listed) {
                    for (String name : names) {
                        add(partitions.get(name), op, new NameListed(name),
                                new NameListing(listed.idsByName().get(name), listed.offset()));
                    }
                }
            } else if (op.outcomeKnown() || !isRead(op.input())) {
                add(partitions.get(op.input().topic()), op, op.input(), op.output());
            }
        }
        return partitions;
    }

    private static boolean isRead(AdminInput input) {
        return input instanceof AdminInput.DescribeTopic;
    }

    private static void add(List<Operation<AdminInput, AdminOutput>> partition, Operation<AdminInput, AdminOutput> op,
                            AdminInput input, AdminOutput output) {
        partition.add(op.project(partition.size(), input, output));
    }
}
