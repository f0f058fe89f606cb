package io.locksmith.azure;

import io.locksmith.spi.BackendContext;
import java.time.Duration;

/**
 * The Azure backend's own options that are not about addressing or credentials.
 *
 * @param timeout the bound on every storage call, connecting included
 * @param createContainer whether a missing container is created
 */
record AzureBlobSettings(Duration timeout, boolean createContainer) {

    static final AzureBlobSettings DEFAULTS = new AzureBlobSettings(Duration.ofSeconds(5), true);

    static AzureBlobSettings of(BackendContext context) {
        return new AzureBlobSettings(
                context.durationOption("timeout", DEFAULTS.timeout()),
                context.booleanOption("create-container", DEFAULTS.createContainer()));
    }
}
