package io.locksmith.examples;

import io.locksmith.LockClient;
import io.locksmith.RateLimiter;
import java.time.Duration;

/**
 * A rate limiter: at most 100 text messages a minute, across every instance of the application,
 * as the SMS provider's contract allows. A window is counted by the backend's clock, so the
 * instances' clocks need not agree.
 */
public final class SmsSender {

    private final RateLimiter provider;
    private final Gateway gateway;

    /**
     * @param locks the application's client; its backend must keep semaphores
     * @param gateway sends a message
     */
    public SmsSender(LockClient locks, Gateway gateway) {
        this.provider = locks.rateLimiter("sms-provider", 100, Duration.ofMinutes(1));
        this.gateway = gateway;
    }

    /**
     * Sends a message if this minute's budget has room, without waiting.
     *
     * @param to the phone number
     * @param text the message
     * @return whether it was sent; if not, send it later
     */
    public boolean trySend(String to, String text) {
        if (!provider.tryAcquire()) {
            return false;
        }
        gateway.send(to, text);
        return true;
    }

    /**
     * Sends a message, waiting for room in the budget.
     *
     * @param to the phone number
     * @param text the message
     * @param wait how long to wait at most
     * @throws io.locksmith.LockTimeoutException if there was no room in time
     */
    public void send(String to, String text, Duration wait) {
        provider.acquire(wait);
        gateway.send(to, text);
    }

    /** The SMS provider. */
    public interface Gateway {
        /**
         * @param to the phone number
         * @param text the message
         */
        void send(String to, String text);
    }
}
