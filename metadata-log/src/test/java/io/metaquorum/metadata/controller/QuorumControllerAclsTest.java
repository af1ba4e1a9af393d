package io.metaquorum.metadata.controller;

import static io.metaquorum.metadata.controller.AclControlManagerTest.topicRead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.acl.AclBindingFilter;
import io.metaquorum.metadata.controller.AclControlManager.CreateAclsResult;
import io.metaquorum.metadata.controller.AclControlManager.DeleteAclsResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ACL writes through the quorum controller: when they answer, their commit offset, ids across a failover. */
class QuorumControllerAclsTest {
    private final ControllerHarness h = new ControllerHarness();

    private void active(int epoch) {
        h.becomeLeader(epoch);
        h.commitAll();
    }

    @Test
    void aStandbyAnswersNotControllerForEveryCreationAndAppendsNothing() {
        List<CreateAclsResult> answers = new ArrayList<>();
        h.controller.createAcls(List.of(topicRead("t", "User:a"), topicRead("u", "User:a")), h.nowMs, answers::add);
        assertEquals(List.of(ErrorCode.NOT_CONTROLLER, ErrorCode.NOT_CONTROLLER),
                answers.get(0).results().stream().map(ApiError::code).toList());
        assertEquals(AclControlManager.NO_COMMIT, answers.get(0).commitOffset());
        List<DeleteAclsResult> deletes = new ArrayList<>();
        h.controller.deleteAcls(List.of(AclBindingFilter.ANY), h.nowMs, deletes::add);
        assertEquals(ErrorCode.NOT_CONTROLLER, deletes.get(0).results().get(0).error().code());
        assertTrue(h.appended.isEmpty());
    }

    @Test
    void aCreateIsAnsweredOnceCommittedWithTheOffsetOfItsLastRecord() {
        active(1);
        List<CreateAclsResult> answers = new ArrayList<>();
        h.controller.createAcls(List.of(topicRead("t", "User:a"), topicRead("u", "User:a")), h.nowMs, answers::add);
        h.acceptAll();
        assertEquals(List.of(), answers, "not before the commit");
        h.commitAll();
        ControllerHarness.Appended append = h.appended.get(h.appended.size() - 1);
        assertEquals(append.lastOffset(), answers.get(0).commitOffset());
        assertEquals(AclIds.atOffset(append.baseOffset()), append.records().get(0).getAccessControlEntry().getId());
        assertTrue(h.committed.lastCommittedOffset() >= answers.get(0).commitOffset());

        List<DeleteAclsResult> deletes = new ArrayList<>();
        h.controller.deleteAcls(List.of(AclBindingFilter.ANY), h.nowMs, deletes::add);
        h.commitAll();
        assertEquals(2, deletes.get(0).results().get(0).deleted().size());
        assertEquals(h.committed.lastCommittedOffset(), deletes.get(0).commitOffset());
        assertEquals(0, h.committed.acls().byId().size());
    }

    @Test
    void anAclLostInAFailoverIsAnsweredNotControllerAndTheNextLeaderWritesItsOwn() {
        active(1);
        List<CreateAclsResult> lost = new ArrayList<>();
        h.controller.createAcls(List.of(topicRead("lost", "User:a")), h.nowMs, lost::add);
        MetadataRecord lostRecord = h.appended.get(h.appended.size() - 1).records().get(0);
        h.controller.handleResign(1);
        assertEquals(ErrorCode.NOT_CONTROLLER, lost.get(0).results().get(0).code());
        h.loseUncommitted();

        active(2);
        List<CreateAclsResult> kept = new ArrayList<>();
        h.controller.createAcls(List.of(topicRead("kept", "User:b")), h.nowMs, kept::add);
        h.commitAll();
        assertEquals(ApiError.NONE, kept.get(0).results().get(0));
        assertEquals(1, h.committed.acls().byId().size());
        assertEquals("kept", h.committed.acls().sortedById().get(0).getResourceName());
        assertTrue(kept.get(0).commitOffset() >= 0);
        assertTrue(h.committed.acls().byId().values().forAll(r -> !r.equals(lostRecord.getAccessControlEntry())));
    }
}
