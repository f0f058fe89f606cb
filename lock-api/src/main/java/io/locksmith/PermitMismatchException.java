package io.locksmith;

/**
 * An acquisition asked a semaphore for one permit of another number than its holders agreed on.
 * Every holder of a semaphore gives it the same number of permits; the number is fixed while the
 * semaphore has holders, and set again by the first acquisition after it has none.
 */
public final class PermitMismatchException extends LockException {

    private static final long serialVersionUID = 1L;

    private final int held;
    private final int asked;

    /**
     * @param name the semaphore's name
     * @param held the number of permits its holders agreed on
     * @param asked the number this acquisition gave
     * @param backend the backend's description, credentials masked
     */
    public PermitMismatchException(String name, int held, int asked, String backend) {
        super("semaphore '" + name + "' on " + backend + " has " + held
                + " permits, but this acquisition asked for one of " + asked
                + ": every holder of a semaphore must give it the same number of permits");
        this.held = held;
        this.asked = asked;
    }

    /** @return the number of permits the semaphore's holders agreed on */
    public int held() {
        return held;
    }

    /** @return the number this acquisition gave */
    public int asked() {
        return asked;
    }
}
