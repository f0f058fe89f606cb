package io.locksmith.spi;

/**
 * The client's monotonic clock, in nanoseconds, as {@link System#nanoTime()} counts them. Every
 * local deadline and every {@link Grant#confirmedAt(long)} is a reading of it; a backend reads it
 * from {@link BackendContext#ticker()} rather than from {@code System.nanoTime()}, so that a test
 * can run a client on a clock it moves by hand.
 */
@FunctionalInterface
public interface Ticker {

    /** The system's monotonic clock. */
    Ticker SYSTEM = System::nanoTime;

    /** @return the current reading, in nanoseconds; only differences between readings mean anything */
    long nanoTime();
}
