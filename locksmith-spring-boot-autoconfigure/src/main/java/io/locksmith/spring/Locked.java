package io.locksmith.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the method while holding a distributed lock from the application's
 * {@link io.locksmith.LockClient}: the lock is taken before the method starts and released when it
 * returns or throws, or, if a Spring transaction is active when the lock is taken, after that
 * transaction completes (commits or rolls back), never before.
 *
 * <pre>{@code
 * @Locked(name = "order:#{#orderId}", waitFor = "5s")
 * @Transactional
 * public void ship(long orderId) {
 *     long token = LockContext.current().fencingToken();
 *     ...
 * }
 * }</pre>
 *
 * <p>The advice runs outside {@code @Transactional} (it has the highest precedence), so on the same
 * method the lock is held from before the transaction begins until after it has committed. Lock
 * names are SpEL templates over the method's arguments, which needs the class compiled with
 * {@code -parameters} (Spring Boot's parent POM and Gradle plugin do this) or {@code #p0}-style
 * references. The lock is held for the method's call only: a method returning a future or a
 * reactive type releases it when the call returns, not when the work completes.
 *
 * <p>A loss while the method runs is logged and published as a {@link LockLostEvent}; the method
 * is not interrupted, and can check {@link LockContext#current()}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Locked {

    /**
     * The lock's name: text with SpEL expressions in {@code #{...}}, evaluated over the method's
     * arguments ({@code #orderId}, {@code #p0}) and the application's beans ({@code @bean}), for
     * example {@code "order:#{#orderId}"}. Property placeholders ({@code ${...}}) are resolved first.
     *
     * @return the lock's name template
     */
    String name();

    /**
     * How long to wait for the lock, as {@code 500ms}, {@code 5s}, {@code 1m} or ISO-8601
     * ({@code PT5S}); placeholders allowed. Empty means 30 s for {@link WhenBusy#WAIT} and a single
     * attempt for {@link WhenBusy#SKIP} and {@link WhenBusy#THROW}. (Not {@code wait}: an annotation
     * cannot declare a member that {@link Object#wait()} already has.)
     *
     * @return the wait
     */
    String waitFor() default "";

    /**
     * The lease for this lock, in the same format as {@link #waitFor()}; empty means the client's
     * ({@code locksmith.lease}). Renewal keeps the lock past one lease while the method runs.
     *
     * @return the lease
     */
    String lease() default "";

    /**
     * What to do when the lock stays held by another owner for the whole wait.
     *
     * @return the policy
     */
    WhenBusy whenBusy() default WhenBusy.WAIT;

    /** What a {@link Locked} method does when another owner holds its lock. */
    enum WhenBusy {
        /**
         * Wait up to {@link Locked#waitFor()} (30 s if empty), then throw
         * {@link io.locksmith.LockTimeoutException}.
         */
        WAIT,
        /**
         * Do not run the method: return {@code null}, an empty {@link java.util.Optional}, or
         * nothing for {@code void}. For {@code @Scheduled} jobs that one instance runs per tick. A
         * method returning a primitive cannot be skipped: that is an {@link IllegalStateException}.
         */
        SKIP,
        /** Throw {@link LockBusyException}, which names the lock. */
        THROW
    }
}
