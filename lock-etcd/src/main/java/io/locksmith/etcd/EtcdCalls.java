package io.locksmith.etcd;

import io.locksmith.LockBackendException;
import io.locksmith.spi.Redaction;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for jetcd's futures within the configured timeout and turns their failures into
 * {@link LockBackendException}s that name the lock and the cluster, never a password.
 */
final class EtcdCalls {

    private final String description;
    private final Duration timeout;

    EtcdCalls(String description, Duration timeout) {
        this.description = description;
        this.timeout = timeout;
    }

    /** Awaits a call made for one lock: {@code what} names the step, as in "release". */
    <T> T await(CompletableFuture<T> future, String what, String lockName) {
        return await(future, what + " of lock '" + lockName + "'");
    }

    /** Awaits a call; {@code call} names it in full, as in "granting a 2 s etcd lease for lock 'x'". */
    <T> T await(CompletableFuture<T> future, String call) {
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new LockBackendException(
                    call + " got no answer from " + description + " within " + timeout.toMillis()
                            + " ms (are the endpoints up, and is a quorum of members?)",
                    e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new LockBackendException(call + " was interrupted", e);
        } catch (ExecutionException e) {
            throw new LockBackendException(
                    call + " failed on " + description + ": " + message(e.getCause()), e.getCause());
        }
    }

    Duration timeout() {
        return timeout;
    }

    String description() {
        return description;
    }

    /**
     * @return the first message in the failure's cause chain and, when a deeper cause has its own,
     *     that cause too (gRPC's status description often sits there), credentials masked; the
     *     failure's type when no link of the chain has a message
     */
    static String message(Throwable e) {
        Throwable first = null;
        Throwable deepest = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                first = first == null ? t : first;
                deepest = t;
            }
        }
        if (first == null) {
            return e.getClass().getName();
        }
        String text = deepest == first ? first.getMessage() : first.getMessage() + " (" + deepest + ")";
        return Redaction.redact(text);
    }

    /** @return whether the failure says the lease is gone on the server */
    static boolean leaseNotFound(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("lease not found")) {
                return true;
            }
        }
        return false;
    }
}
