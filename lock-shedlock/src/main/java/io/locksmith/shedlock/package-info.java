/**
 * ShedLock on Locksmith: {@link io.locksmith.shedlock.LocksmithLockProvider} takes
 * {@code @SchedulerLock} jobs' locks from any Locksmith backend. See {@code docs/shedlock.md}.
 */
package io.locksmith.shedlock;
