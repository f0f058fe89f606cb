package io.locksmith.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.locksmith.LockTimeoutException;
import io.locksmith.tck.ReferenceSubject.Breakage;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

/**
 * The kit is tested too: each deliberately broken provider must fail the rule it breaks, by
 * name, with a message naming the provider; the same provider unbroken must pass that rule.
 * The {@link Flaw}s are providers broken in one call each over a sound in-memory server; the
 * sound one must pass every rule the kit has, none skipped but those its capabilities exclude.
 */
class BrokenProvidersTest {

    /** The configuration parameter that tells {@link Flawed} which flaw to run with. */
    private static final String FLAW = "locksmith.tck.flaw";

    static Stream<Arguments> breakages() {
        return Stream.of(
                Arguments.of(Breakage.RELEASE_WITHOUT_OWNER_CHECK, "required_releaseAfterExpiryLeavesTheNextOwnersLock"),
                Arguments.of(Breakage.TOKEN_NOT_INCREASING, "required_tokensIncreaseAcrossGrantsAndClients"),
                Arguments.of(Breakage.TOKEN_NOT_INCREASING, "required_tokensIncreaseAfterExpiry"),
                Arguments.of(Breakage.RENEWAL_NEVER_RUNS, "required_renewalKeepsALockHeldPastThreeLeases"),
                Arguments.of(Breakage.RENEWAL_NEVER_RUNS, "required_extendRenewsByHand"),
                Arguments.of(Breakage.EXPIRY_BY_CLIENT_WALL_CLOCK, "required_leasesIgnoreClientWallClocks"),
                Arguments.of(Breakage.LOSS_NEVER_REPORTED, "required_stateRemovedBehindTheHolderIsReportedLostOnce"),
                Arguments.of(Breakage.WAITERS_NEVER_WOKEN, "required_acquireSucceedsWhenTheLockIsFreed"));
    }

    /** Each flaw with a rule it must fail, and how it fails when that is not by the rule's own assertion. */
    static Stream<Arguments> flaws() {
        return Stream.of(
                fails(Flaw.CHECK_THEN_SET, "required_mutualExclusionUnderContention"),
                fails(Flaw.KEYS_TRUNCATED, "required_distinctNamesAreIndependent"),
                fails(Flaw.KEYS_TRUNCATED, "required_unusualNamesAreDistinctAndUsable"),
                fails(Flaw.KEYS_ESCAPED_LOSSILY, "required_unusualNamesAreDistinctAndUsable"),
                fails(Flaw.OWNER_IS_THE_CLIENT, "required_locksAreNotReentrant"),
                fails(Flaw.FIRST_ATTEMPT_REFUSED, "required_tryAcquireTakesAFreeLock"),
                fails(Flaw.WAITS_WHILE_HELD, "required_tryAcquireOnAHeldLockReturnsEmptyAtOnce"),
                fails(Flaw.WAITS_WHILE_HELD, "required_acquireTimesOutWithinABound"),
                fails(Flaw.WAITS_WHILE_HELD, "required_anInterruptStopsAWaitingAcquire"),
                fails(Flaw.ATTEMPT_NEVER_ANSWERS, "required_acquireAsyncCompletes"),
                fails(Flaw.RELEASE_KEEPS_THE_KEY, "required_closingAClientReleasesItsLocks"),
                Arguments.of(Flaw.LEASE_IN_SECONDS, "required_aCrashedHoldersLockIsFreeWithinItsLeasePlusAMargin",
                        LockTimeoutException.class),
                fails(Flaw.RENEWS_ONLY_A_HUNDRED, "required_aThousandLocksStayHeldByOneClient"),
                fails(Flaw.THREAD_PER_LOCK, "required_aThousandLocksStayHeldByOneClient"),
                fails(Flaw.RENEWS_WHILE_UNREACHABLE, "required_connectionCutPastTheLeaseLosesTheLock"),
                fails(Flaw.RENEWS_WHILE_UNREACHABLE, "required_aStalledHolderIsNotHeldOnceItsLocalDeadlinePasses"),
                fails(Flaw.FENCE_IN_LOCK_STATE, "required_tokensIncreaseAfterTheLocksStateWasRemoved"),
                fails(Flaw.LEASE_LIMITS_UNDECLARED, "required_aLeaseTheBackendCannotHonourIsRejected"),
                fails(Flaw.SIGNALS_NEVER_FIRE, "optional_waiterIsWokenPromptlyOnRelease"));
    }

    private static Arguments fails(Flaw flaw, String rule) {
        return Arguments.of(flaw, rule, null);
    }

    @ParameterizedTest(name = "{0} fails {1}")
    @MethodSource("flaws")
    void aFlawedProviderFailsTheRuleItBreaks(Flaw flaw, String rule, Class<? extends Throwable> failsWith) {
        Events broken = EngineTestKit.engine("junit-jupiter").configurationParameter(FLAW, flaw.name())
                .selectors(selectMethod(Flawed.class, rule)).execute().testEvents();
        assertEquals(1, broken.failed().count(), "flawed/" + flaw + " must fail " + rule + ": " + describe(broken));
        Throwable why = cause(broken).orElseThrow();
        Class<? extends Throwable> expected = failsWith == null ? AssertionFailedError.class : failsWith;
        assertTrue(expected.isInstance(why), rule + " must fail on flawed/" + flaw + " with " + expected.getSimpleName()
                + ", failed with " + why);
        String says = failsWith == null ? "[flawed/" + flaw + "] " + rule : rule; // else: the lock's name carries the rule
        assertTrue(String.valueOf(why.getMessage()).contains(says),
                "the failure must name the provider and the rule: " + why.getMessage());
    }

    @Test
    void theSoundProviderPassesEveryRule() {
        Events sound = EngineTestKit.engine("junit-jupiter").configurationParameter(FLAW, Flaw.NONE.name())
                .selectors(selectClass(Flawed.class)).execute().testEvents();
        assertEquals(0, sound.failed().count(), "the sound provider must pass every rule: " + describe(sound));
        List<String> skipped = sound.aborted().stream().map(BrokenProvidersTest::rule).toList();
        assertEquals(List.of("optional_waitersAreGrantedInArrivalOrder"), skipped,
                "only the rules its capabilities exclude may skip on the sound provider (it does not queue)");
        assertTrue(sound.succeeded().count() >= 30, "the sound provider ran " + sound.succeeded().count() + " rules");
    }

    @ParameterizedTest(name = "{0} fails {1}")
    @MethodSource("breakages")
    void aBrokenProviderFailsTheRuleItBreaks(Breakage breakage, String rule) {
        Events broken = run(contractFor(breakage), rule);
        assertEquals(1, broken.failed().count(), breakage + " must fail " + rule);
        Optional<Throwable> why = broken.failed().stream().findFirst()
                .flatMap(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class))
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable);
        assertTrue(why.isPresent() && why.get().getMessage().contains("[reference/" + breakage + "] " + rule),
                "the failure must name the provider and the rule: " + why.map(Throwable::getMessage).orElse("none"));

        Events sound = run(Sound.class, rule);
        assertEquals(1, sound.succeeded().count(), "the unbroken provider must pass " + rule + ": " + describe(sound));
    }

    private static Optional<Throwable> cause(Events failed) {
        return failed.failed().stream().findFirst()
                .flatMap(e -> e.getPayload(TestExecutionResult.class))
                .flatMap(TestExecutionResult::getThrowable);
    }

    private static String rule(Event e) {
        return e.getTestDescriptor().getSource().filter(org.junit.platform.engine.support.descriptor.MethodSource.class::isInstance)
                .map(s -> ((org.junit.platform.engine.support.descriptor.MethodSource) s).getMethodName()).orElse(e.getTestDescriptor().getDisplayName());
    }

    private static Events run(Class<? extends LockContract> contract, String rule) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(contract, rule))
                .execute()
                .testEvents();
    }

    private static String describe(Events events) {
        return events.failed().stream().map(e -> rule(e) + ": " + e.getPayload(TestExecutionResult.class)
                .flatMap(TestExecutionResult::getThrowable).map(Throwable::toString).orElse("?")).toList().toString();
    }

    private static Class<? extends LockContract> contractFor(Breakage breakage) {
        for (Class<?> c : BrokenProvidersTest.class.getDeclaredClasses()) {
            if (c.getSimpleName().equalsIgnoreCase(breakage.name().replace("_", ""))) {
                return c.asSubclass(LockContract.class);
            }
        }
        throw new IllegalArgumentException("no contract for " + breakage);
    }

    static List<Breakage> all() {
        return List.of(Breakage.values());
    }

    // One contract per provider, nested so that the build's own test run does not pick them up.

    /** The contract against the {@link Flaw} named by the configuration parameter {@value #FLAW}. */
    @ExtendWith(ChosenFlaw.class)
    static final class Flawed extends LockContract {
        private final Flaw flaw;

        Flawed(Flaw flaw) {
            this.flaw = flaw;
        }

        @Override
        protected TckSubject subject() {
            return new FlawedSubject(flaw);
        }
    }

    /** Hands {@link Flawed} the flaw its run was started with. */
    static final class ChosenFlaw implements ParameterResolver {
        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == Flaw.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return Flaw.valueOf(context.getConfigurationParameter(FLAW)
                    .orElseThrow(() -> new IllegalStateException("run Flawed with the parameter " + FLAW)));
        }
    }

    static final class Sound extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.NONE);
        }
    }

    static final class ReleaseWithoutOwnerCheck extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.RELEASE_WITHOUT_OWNER_CHECK);
        }
    }

    static final class TokenNotIncreasing extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.TOKEN_NOT_INCREASING);
        }
    }

    static final class RenewalNeverRuns extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.RENEWAL_NEVER_RUNS);
        }
    }

    static final class ExpiryByClientWallClock extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.EXPIRY_BY_CLIENT_WALL_CLOCK);
        }
    }

    static final class LossNeverReported extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.LOSS_NEVER_REPORTED);
        }
    }

    static final class WaitersNeverWoken extends LockContract {
        @Override
        protected TckSubject subject() {
            return new ReferenceSubject(Breakage.WAITERS_NEVER_WOKEN);
        }
    }
}
