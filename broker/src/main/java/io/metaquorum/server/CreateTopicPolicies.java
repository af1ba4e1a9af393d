package io.metaquorum.server;

import io.metaquorum.metadata.controller.CreateTopicPolicy;

/**
 * Loads {@code create.topic.policy.class.name}: the one class metaquorum loads by name, once,
 * at start-up. A class that is missing, has no public no-argument constructor or is not a
 * {@link CreateTopicPolicy} stops start-up with a message naming it.
 */
public final class CreateTopicPolicies {
    public static final String KEY = "create.topic.policy.class.name";

    private CreateTopicPolicies() {
    }

    public static CreateTopicPolicy load(String className) {
        if (className == null) {
            return CreateTopicPolicy.NONE;
        }
        Class<?> type;
        try {
            type = Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new ConfigException(KEY, "class " + className + " is not on the class path");
        }
        if (!CreateTopicPolicy.class.isAssignableFrom(type)) {
            throw new ConfigException(KEY, "class " + className + " does not implement "
                    + CreateTopicPolicy.class.getName());
        }
        try {
            return (CreateTopicPolicy) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new ConfigException(KEY, "class " + className + " cannot be created with a public no-argument "
                    + "constructor: " + e);
        }
    }
}
