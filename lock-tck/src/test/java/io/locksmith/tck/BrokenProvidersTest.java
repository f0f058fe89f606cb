package io.locksmith.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.locksmith.tck.ReferenceSubject.Breakage;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * The kit is tested too: each deliberately broken provider must fail the rule it breaks, by
 * name, with a message naming the provider; the same provider unbroken must pass that rule.
 */
class BrokenProvidersTest {

    static Stream<Arguments> breakages() {
        return Stream.of(
                Arguments.of(Breakage.RELEASE_WITHOUT_OWNER_CHECK, "required_releaseAfterExpiryLeavesTheNextOwnersLock"),
                Arguments.of(Breakage.TOKEN_NOT_INCREASING, "required_tokensIncreaseAcrossGrantsAndClients"),
                Arguments.of(Breakage.TOKEN_NOT_INCREASING, "required_tokensIncreaseAfterExpiry"),
                Arguments.of(Breakage.RENEWAL_NEVER_RUNS, "required_renewalKeepsALockHeldPastThreeLeases"),
                Arguments.of(Breakage.EXPIRY_BY_CLIENT_WALL_CLOCK, "required_leasesIgnoreClientWallClocks"),
                Arguments.of(Breakage.LOSS_NEVER_REPORTED, "required_stateRemovedBehindTheHolderIsReportedLostOnce"),
                Arguments.of(Breakage.WAITERS_NEVER_WOKEN, "required_acquireSucceedsWhenTheLockIsFreed"));
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

    private static Events run(Class<? extends LockContract> contract, String rule) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(contract, rule))
                .execute()
                .testEvents();
    }

    private static String describe(Events events) {
        return events.failed().stream().map(Event::toString).toList().toString();
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
