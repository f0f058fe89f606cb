package io.locksmith.redis;

import io.lettuce.core.ScriptOutputType;
import io.locksmith.PermitMismatchException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.Hold;
import io.locksmith.spi.LockInspector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Semaphores and read-write locks in Redis: keys that admit several holders. A family's key is a
 * sorted set of its holders' owners by lease end and a hash of their grants ({@link RedisKeys.Shared}),
 * changed only by scripts that read the server's clock (TIME) and drop ended holders first, so
 * leases end by the server's clock as a lock's PX expiry does. Each primitive is one script call.
 *
 * <p>Releases publish on the lock's channel of the same key: the core subscribes by key alone
 * ({@link io.locksmith.spi.ReleaseSignals#subscribe(String)} is not told the family), so a
 * semaphore's release may also wake a waiter for the lock of the same name, which then tries once
 * in vain.
 */
final class RedisSharedHolds {

    private static final long GRANTED = 1;
    private static final long MISMATCH = 2;

    private final RedisLink link;
    private final String description;

    RedisSharedHolds(RedisLink link, String description) {
        this.link = link;
        this.description = description;
    }

    /** One call of {@code semaphore-acquire.lua} or {@code readwrite-acquire.lua}. */
    AcquireResult tryAcquire(AcquireRequest request) {
        Hold hold = request.hold();
        String lease = Long.toString(request.lease().toMillis());
        List<Object> answer = call(
                request.name(),
                "acquire",
                () -> hold.kind() == Hold.Kind.PERMIT
                        ? RedisScript.SEMAPHORE_ACQUIRE.run(
                                link.scripts(),
                                ScriptOutputType.MULTI,
                                semaphoreAcquireKeys(request.key()),
                                request.owner(),
                                lease,
                                Integer.toString(hold.permits()))
                        : RedisScript.READWRITE_ACQUIRE.run(
                                link.scripts(),
                                ScriptOutputType.MULTI,
                                readWriteAcquireKeys(request.key()),
                                request.owner(),
                                lease,
                                hold.kind() == Hold.Kind.WRITE ? "W" : "R"));
        long outcome = (Long) answer.get(0);
        long value = (Long) answer.get(1);
        if (outcome == GRANTED) {
            return Grant.of(value);
        }
        if (outcome == MISMATCH) {
            throw new PermitMismatchException(request.name(), (int) value, hold.permits(), description);
        }
        return Held.remaining(Duration.ofMillis(value));
    }

    private static String[] semaphoreAcquireKeys(String key) {
        RedisKeys.Shared keys = RedisKeys.semaphore(key);
        return new String[] {keys.holders(), keys.grants(), keys.fence()};
    }

    private static String[] readWriteAcquireKeys(String key) {
        RedisKeys.Shared keys = RedisKeys.readWrite(key);
        return new String[] {keys.holders(), keys.grants(), keys.writers(), keys.fence()};
    }

    /** One call of {@code shared-release.lua}: owner- and token-checked. */
    boolean release(HeldLease lease) {
        Long released = RedisBackend.callRepeatable(
                link,
                description,
                lease.name(),
                "release",
                () -> RedisScript.SHARED_RELEASE.run(
                        link.scripts(),
                        ScriptOutputType.INTEGER,
                        RedisKeys.shared(lease.key(), lease.hold().kind()).holdKeys(),
                        lease.owner(),
                        Long.toString(lease.token()),
                        RedisKeys.channel(lease.key())));
        return released == 1L;
    }

    /** One call of {@code shared-abandon.lua}: the owner's hold, under any token, and a writer's mark. */
    void abandon(AcquireRequest request) {
        RedisBackend.callRepeatable(
                link,
                description,
                request.name(),
                "abandon",
                () -> RedisScript.SHARED_ABANDON.run(
                        link.scripts(),
                        ScriptOutputType.INTEGER,
                        RedisKeys.shared(request.key(), request.hold().kind()).abandonKeys(),
                        request.owner(),
                        RedisKeys.channel(request.key())));
    }

    /** One call of {@code shared-holders.lua}, in grant order (by token). */
    List<LockInspector.Holder> holders(String key, Hold.Kind kind) {
        List<Object> answer = call(
                key,
                "inspect",
                () -> RedisScript.SHARED_HOLDERS.run(
                        link.scripts(),
                        ScriptOutputType.MULTI,
                        RedisKeys.shared(key, kind).holdKeys()));
        List<LockInspector.Holder> holders = new ArrayList<>();
        for (int i = 0; i < answer.size(); i += 3) {
            String grant = (String) answer.get(i + 1);
            Hold.Kind held = switch (grant.charAt(0)) {
                case 'W' -> Hold.Kind.WRITE;
                case 'R' -> Hold.Kind.READ;
                default -> Hold.Kind.PERMIT;
            };
            holders.add(new LockInspector.Holder(
                    held,
                    new LockInspector.HolderState(
                            (String) answer.get(i),
                            Long.parseLong(grant.substring(2)),
                            Duration.ofMillis(Long.parseLong((String) answer.get(i + 2))))));
        }
        holders.sort(Comparator.comparingLong(h -> h.state().token()));
        return holders;
    }

    private <T> T call(String lockName, String what, RedisBackend.Call<T> call) {
        return RedisBackend.call(link, description, lockName, what, call);
    }
}
