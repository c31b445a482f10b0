# Included by ctest after the end-to-end tests are listed (see CMakeLists.txt): the tests that
# must not share the machine with one another. Every other end-to-end test has its own server,
# data directory and port, and runs beside any other.
#
# "machine_load" (a lock and a label): tests that assert how soon something happens (a refusal
# "at once", a cut-off within the read timeout, a server using little CPU while it cannot accept)
# and the tests that load the machine most (70 concurrent chats; writers killed in a loop). Two of
# them at once on a two-core machine could make a timed assertion fail for a reason that is not the
# server's. Within one ctest run they still run beside the other tests, which are light;
# scripts/test.sh runs them after its two side-by-side runs, one at a time.
set(parley_machine_load_tests
  e2e.ChatIsolation.StallingAgentsFillTheirOwnCapsAndAnotherAccountStaysFast
  e2e.HttpAccept.RunningOutOfDescriptorsPausesAcceptingInsteadOfSpinning
  e2e.HttpBlockingQueue.RequestsPastTheQueueGet503AtOnce
  e2e.HttpBlockingQueue.AReadRefusedForWantOfAWorkerKeepsItsRateLimitHeaders
  e2e.HttpReadTimeout.ABodyTrickledAByteAtATimeIsCutOffAtTheReadTimeout
  e2e.KillUnderWrites.EveryAcknowledgedWriteSurvivesAndEachRecordHasExactlyOneEvent)
set_tests_properties(${parley_machine_load_tests} PROPERTIES RESOURCE_LOCK machine_load
                     LABELS "e2e;machine_load")
