package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import java.util.Optional;

/**
 * What a provider hands the kit: a way to open clients that behave like separate processes,
 * what the provider can promise, and hooks to inject faults.
 *
 * <pre>{@code
 * class MyProviderContractTest extends LockContract {
 *     protected TckSubject subject() {
 *         return new TckSubject() {
 *             public String name() { return "mine"; }
 *             public LockClient newClient(LockOptions options) { return LockClient.open("mine://localhost", options); }
 *         };
 *     }
 * }
 * }</pre>
 */
public interface TckSubject extends AutoCloseable {

    /** @return the provider's name, used in every assertion message */
    String name();

    /**
     * Opens a new client, independent of every other client the kit opened: it must behave as if
     * it ran in another process (its own connection, its own renewal). The kit closes it.
     *
     * @param options the options the kit needs (lease, renewal, back-off); pass them on
     * @return an open client; lock names are used without a prefix, so a name is the backend key
     */
    LockClient newClient(LockOptions options);

    /** @return what the provider can promise; conservative defaults */
    default Capabilities capabilities() {
        return Capabilities.builder().build();
    }

    /**
     * @return the provider's fault hooks; none by default, and a rule that needs one fails unless the
     *     provider declares it lacking ({@link Capabilities.Builder#lacks(Fault...)})
     */
    default Faults faults() {
        return new Faults() {};
    }

    /**
     * A URI with a credential in it, for the rule that no exception message, {@code toString()}
     * or log line shows a credential: the kit opens clients from it, from it with a wrong
     * credential, with bad options and aimed where no server answers, makes them fail, and looks
     * for the credential in everything they show. None by default: then the rule fails, unless
     * the provider declares {@code Capabilities.builder().lacks(Fault.SECRET_URI)}.
     *
     * @return the URI, its credential and an unreachable twin
     */
    default Optional<SecretUri> secretUri() {
        return Optional.empty();
    }

    /** Releases what the subject holds (a server connection used for faults). */
    @Override
    default void close() {}
}
