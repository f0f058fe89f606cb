package io.locksmith.spi;

/**
 * A backend's answer to one acquisition attempt: a {@link Grant}, or {@link Held} when another
 * owner holds the key.
 */
public sealed interface AcquireResult permits Grant, Held {}
