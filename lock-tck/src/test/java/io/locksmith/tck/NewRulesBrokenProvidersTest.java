package io.locksmith.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.ReferenceSubject.Breakage;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * The rules added for issue 14, each shown able to fail: a reference provider broken the way a
 * real provider was wrong fails the rule, by name; the reference unbroken (polling, or queued for
 * the queue's rules) passes it. Rules that guard the core are shown failing on the reference
 * behind a client wrong in the core's part ({@link BrokenCoreSubject}). And the fault-hook policy: a hook neither supplied nor declared
 * lacking fails its rule; one declared lacking skips it, saying it did not run.
 */
@Execution(ExecutionMode.CONCURRENT) // each case runs the kit on servers of its own
class NewRulesBrokenProvidersTest {

    static Stream<Arguments> breakages() {
        return Stream.of(
                Arguments.of(
                        RenewKeepsOriginalLease.class,
                        "required_extendToALongerLeaseKeepsTheLockUntilTheNewDeadline",
                        Sound.class),
                Arguments.of(
                        RenewKeepsOriginalLease.class,
                        "required_extendToAShorterLeaseFreesTheLockAtTheNewDeadline",
                        Sound.class),
                Arguments.of(
                        LosesOnConnectionError.class,
                        "required_aConnectionCutShorterThanTheLeaseLosesNothing",
                        Sound.class),
                Arguments.of(
                        UnreachableEndsTheWait.class,
                        "required_aWaitRetriesAnUnreachableBackendUntilTheWaitEnds",
                        Sound.class),
                Arguments.of(
                        RestartResetsTokens.class,
                        "required_aServerRestartKeepsOrReportsLocksAndLetsWaitersProceed",
                        Sound.class),
                Arguments.of(
                        AbandonDoesNothing.class,
                        "required_anAttemptGivenUpWithItsReplyOutstandingLeavesTheLockTakeable",
                        Sound.class),
                Arguments.of(
                        QueuedGrantConfirmedAtReply.class,
                        "required_aHoldersDeadlineCountsFromTheRequestsSendNotItsReply",
                        SoundQueued.class),
                Arguments.of(
                        GrantsARemovedWaiter.class,
                        "optional_aWaiterWhoseQueueEntryWasRemovedIsNeverGrantedBesideAnotherHolder",
                        SoundQueued.class),
                Arguments.of(
                        CancelLeavesQueueEntry.class, "required_aTimedOutWaitLeavesTheLockTakeable", SoundQueued.class),
                Arguments.of(
                        CancelLeavesQueueEntry.class,
                        "required_anInterruptedWaitLeavesTheLockTakeable",
                        SoundQueued.class),
                Arguments.of(
                        CancelLeavesQueueEntry.class,
                        "required_aWaitThatFailedOnABackendErrorLeavesTheLockTakeable",
                        SoundQueued.class),
                // rules that guard the core: the same sound reference behind a client wrong in the core's part
                Arguments.of(
                        CallbacksOnAnIoThread.class,
                        "required_lossCallbacksRunOnTheCoresWorkersAndMayBlock",
                        Sound.class),
                Arguments.of(CloseLeavesWaitsRunning.class, "required_closingAClientEndsItsWaitsPromptly", Sound.class),
                Arguments.of(
                        AsLockKeepsTheLocalLockOnError.class,
                        "required_asLockAfterABackendErrorNeitherFakesNorWedgesTheLock",
                        Sound.class));
    }

    @ParameterizedTest(name = "{0} fails {1}")
    @MethodSource("breakages")
    void aBrokenProviderFailsTheNewRuleItBreaks(
            Class<? extends LockContract> broken, String rule, Class<? extends LockContract> sound) {
        Events events = run(broken, rule);
        assertEquals(
                1, events.failed().count(), broken.getSimpleName() + " must fail " + rule + ": " + describe(events));
        String why = failureMessage(events);
        assertTrue(
                why.startsWith("[reference/") && why.contains("] " + rule + ": "),
                "the failure must name the provider and the rule: " + why);

        Events passing = run(sound, rule);
        assertEquals(
                1,
                passing.succeeded().count(),
                "the unbroken " + sound.getSimpleName() + " must pass " + rule + ": " + describe(passing));
    }

    static Stream<String> newRules() {
        return Stream.of(
                        ExtendRules.class,
                        OutageRules.class,
                        GiveUpRules.class,
                        QueueRules.class,
                        AdapterRules.class,
                        LossRules.class)
                .flatMap(group -> Arrays.stream(group.getDeclaredMethods()))
                .filter(m -> m.isAnnotationPresent(org.junit.jupiter.api.Test.class))
                .map(Method::getName)
                .sorted();
    }

    @ParameterizedTest(name = "the queued reference passes {0}")
    @MethodSource("newRules")
    void theSoundQueuedReferencePassesEveryNewRule(String rule) {
        // the polling reference runs them in lock-memory's build; a queued provider takes the core's other path
        Events events = run(SoundQueued.class, rule);
        assertEquals(1, events.succeeded().count(), "the queued reference must pass " + rule + ": " + describe(events));
    }

    static Stream<String> hookedRules() {
        return Stream.of(
                "required_leasesIgnoreClientWallClocks",
                "required_aServerRestartKeepsOrReportsLocksAndLetsWaitersProceed",
                "required_anAttemptGivenUpWithItsReplyOutstandingLeavesTheLockTakeable",
                "required_stateRemovedBehindTheHolderIsReportedLostOnce",
                "required_noMessageToStringOrLogLineShowsACredential");
    }

    @ParameterizedTest(name = "{0} fails without its hook")
    @MethodSource("hookedRules")
    void aRuleWhoseHookIsMissingFails(String rule) {
        Events events = run(NoHooks.class, rule);
        assertEquals(
                1,
                events.failed().count(),
                rule + " must fail when its hook is neither supplied nor declared lacking: " + describe(events));
        String why = failureMessage(events);
        assertTrue(
                why.contains("] " + rule + ": the provider supplies no hook to") && why.contains(".lacks(Fault."),
                "the failure must name the missing hook and how to declare it: " + why);
    }

    @ParameterizedTest(name = "{0} says it did not run when its hook is declared lacking")
    @MethodSource("hookedRules")
    void aRuleWhoseHookIsDeclaredLackingSaysItDidNotRun(String rule) {
        Events events = run(LacksHooks.class, rule);
        assertEquals(
                1,
                events.aborted().count(),
                rule + " must be skipped when its hook is declared lacking: " + describe(events));
        String why = events.aborted().stream()
                .findFirst()
                .flatMap(e -> e.getPayload(TestExecutionResult.class))
                .flatMap(TestExecutionResult::getThrowable)
                .map(Throwable::getMessage)
                .orElse("");
        assertTrue(
                why.contains("] " + rule + ": skipped, did not run") && why.contains("no hook to"),
                "the skip must say the rule did not run and which hook it lacks: " + why);
    }

    private static Events run(Class<? extends LockContract> contract, String rule) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(contract, rule))
                .execute()
                .testEvents();
    }

    private static String failureMessage(Events events) {
        Optional<Throwable> why = events.failed().stream()
                .findFirst()
                .flatMap(e -> e.getPayload(TestExecutionResult.class))
                .flatMap(TestExecutionResult::getThrowable);
        return why.map(Throwable::getMessage).orElse("none");
    }

    private static String describe(Events events) {
        return events.stream()
                .filter(e -> e.getPayload(TestExecutionResult.class).isPresent())
                .map(Event::toString)
                .toList()
                .toString();
    }

    // One contract per provider, nested so that the build's own test run does not pick them up.

    static final class Sound extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.NONE);
        }
    }

    static final class SoundQueued extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.NONE, true);
        }
    }

    static final class RenewKeepsOriginalLease extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.RENEW_KEEPS_ORIGINAL_LEASE);
        }
    }

    static final class LosesOnConnectionError extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.LOSES_ON_CONNECTION_ERROR);
        }
    }

    static final class UnreachableEndsTheWait extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.UNREACHABLE_ENDS_THE_WAIT);
        }
    }

    static final class RestartResetsTokens extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.RESTART_RESETS_TOKENS);
        }
    }

    static final class AbandonDoesNothing extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.ABANDON_DOES_NOTHING);
        }
    }

    static final class QueuedGrantConfirmedAtReply extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.QUEUED_GRANT_CONFIRMED_AT_REPLY);
        }
    }

    static final class GrantsARemovedWaiter extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.GRANTS_A_REMOVED_WAITER);
        }
    }

    static final class CancelLeavesQueueEntry extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.CANCEL_LEAVES_QUEUE_ENTRY);
        }
    }

    static final class CallbacksOnAnIoThread extends LockContract {
        @Override
        protected TckSubject subject() {
            return new BrokenCoreSubject(BrokenCoreSubject.Breakage.CALLBACKS_ON_AN_IO_THREAD);
        }
    }

    static final class CloseLeavesWaitsRunning extends LockContract {
        @Override
        protected TckSubject subject() {
            return new BrokenCoreSubject(BrokenCoreSubject.Breakage.CLOSE_LEAVES_WAITS_RUNNING);
        }
    }

    static final class AsLockKeepsTheLocalLockOnError extends LockContract {
        @Override
        protected TckSubject subject() {
            return new BrokenCoreSubject(BrokenCoreSubject.Breakage.AS_LOCK_KEEPS_THE_LOCAL_LOCK_ON_ERROR);
        }
    }

    /** The sound reference with no fault hooks and no declaration that it lacks them. */
    static final class NoHooks extends LockContract {
        @Override
        protected TckSubject subject() {
            return new Delegating(
                    new ReferenceSubject(Breakage.NONE), Capabilities.builder().build()) {
                @Override
                public Faults faults() {
                    return new Faults() {};
                }
            };
        }
    }

    /** The sound reference declaring every fault hook lacking, as the command-line runner must. */
    static final class LacksHooks extends LockContract {
        @Override
        protected TckSubject subject() {
            return new Delegating(
                    new ReferenceSubject(Breakage.NONE),
                    Capabilities.builder().lacks(Fault.values()).build());
        }
    }

    /** A subject that is another with its capabilities replaced. */
    private static class Delegating implements TckSubject {
        private final TckSubject inner;
        private final Capabilities capabilities;

        Delegating(TckSubject inner, Capabilities capabilities) {
            this.inner = inner;
            this.capabilities = capabilities;
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public LockClient newClient(LockOptions options) {
            return inner.newClient(options);
        }

        @Override
        public Capabilities capabilities() {
            return capabilities;
        }

        @Override
        public Faults faults() {
            return inner.faults();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
