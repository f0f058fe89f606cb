/**
 * The fault suite: worker processes that take one lock again and again and write to a fenced
 * ledger, nemeses that kill, pause and cut them and their servers, and a checker that reads what
 * every process logged and counts what went wrong. docs/reliability.md explains each part and
 * holds the figures of a full run.
 *
 * <p>Every process appends one line per step to its own history file, as the step happens
 * ({@link io.locksmith.faults.EventLog}); {@link io.locksmith.faults.History} reads them back. All
 * times are {@link System#nanoTime()}, which on Linux is the machine's monotonic clock and so
 * the same clock in every process of one machine.
 */
package io.locksmith.faults;
