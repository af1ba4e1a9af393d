package io.metaquorum.sim.system.world;

/**
 * What the system layer of one run did.
 *
 * @param adminCalls       admin calls finished (any answer, or given up at their deadline)
 * @param itemsAcknowledged write items answered NONE
 * @param topicsCreated    topics acknowledged as created
 * @param fences           FenceBrokerRecords committed
 * @param unfences         UnfenceBrokerRecords committed
 * @param unfencesAfterFence of them, unfencing a broker a FenceBrokerRecord had fenced
 * @param registrations    RegisterBrokerRecords committed
 * @param topicIds         distinct topic ids created
 * @param directoryChecks  complete reconcile passes whose directories were checked
 * @param historyOperations admin attempts recorded in the history
 * @param unknownOutcomes  of them, with no definite answer
 * @param sealedOutcomes   of those, bounded by the log: decided before their seal ({@code HistorySealer})
 * @param snapshotsWritten snapshots the nodes' loaders took and their raft cores registered
 * @param snapshotsLoaded  snapshots the nodes' state machines loaded (at a restart or fetched)
 * @param diskFaultsArmed  brokers' disk faults armed: runs of failing operations, crash points
 * @param reconcileFailures reconcile passes a disk error cut short (retried with a backoff)
 * @param crashPointsHit   brokers killed by a crash point in the middle of their directory work
 * @param controlledShutdownsBegun     graceful stops of a running broker that asked to be let go
 * @param controlledShutdownsCompleted of them, ended by the controller's shouldShutDown (the others
 *                                     by the timeout, a crash or a refused heartbeat)
 * @param answersJudged    definite admin answers (per item) the reference model judged
 * @param answersDenied    definite admin answers (per item) TOPIC_AUTHORIZATION_FAILED, which the
 *                         reference model leaves to the authorization check
 * @param authorizationJudged entries of admin answers the authorization check judged
 *                         ({@code AuthorizationCheck}: topics, listed names, ACL writes)
 * @param authorizationDenied of them, those Kafka's StandardAuthorizer denied
 * @param denialsAudited   denials the nodes' authorizers wrote on their audit log
 * @param aclWritesSent    CreateAcls and DeleteAcls attempts sent
 * @param aclWritesDenied  of the ACL writes, those refused CLUSTER_AUTHORIZATION_FAILED
 * @param voterChangesTaken VotersRecords an active controller took from its raft leader to append
 *                         between its own writes (a voter change that costs no election)
 * @param scramWritesSent  AlterUserScramCredentials attempts sent
 * @param scramWritesDenied of the SCRAM writes, those refused CLUSTER_AUTHORIZATION_FAILED
 * @param scramUsersJudged users of SCRAM write answers whose decided code the controller's rules judged
 *                         ({@code ScramWriteCheck})
 * @param scramUsersAcknowledged of them, users answered NONE (a credential stored or deleted)
 */
public record SystemStats(long adminCalls, long itemsAcknowledged, long topicsCreated, long fences, long unfences,
                          long unfencesAfterFence, long registrations, long topicIds, long directoryChecks,
                          long historyOperations, long unknownOutcomes, long sealedOutcomes, long snapshotsWritten,
                          long snapshotsLoaded, long diskFaultsArmed, long reconcileFailures, long crashPointsHit,
                          long controlledShutdownsBegun, long controlledShutdownsCompleted,
                          long answersJudged, long answersDenied, long authorizationJudged,
                          long authorizationDenied, long denialsAudited, long aclWritesSent, long aclWritesDenied,
                          long voterChangesTaken, long scramWritesSent, long scramWritesDenied,
                          long scramUsersJudged, long scramUsersAcknowledged) {
}
