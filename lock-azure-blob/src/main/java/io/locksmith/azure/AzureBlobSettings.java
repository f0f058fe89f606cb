package io.locksmith.azure;

import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import io.locksmith.spi.BackendConfig;
import java.time.Duration;
import java.util.Locale;

/**
 * The Azure backend's own options that are not about addressing or credentials.
 *
 * @param timeout the bound on every storage call, connecting included
 * @param createContainer whether a missing container is created
 */
record AzureBlobSettings(Duration timeout, boolean createContainer) {

    static final AzureBlobSettings DEFAULTS = new AzureBlobSettings(Duration.ofSeconds(5), true);

    static AzureBlobSettings of(BackendConfig config) {
        Duration timeout = config.option("timeout").map(v -> duration(config, v)).orElse(DEFAULTS.timeout());
        boolean create = config.option("create-container").map(v -> bool(config, "create-container", v)).orElse(true);
        return new AzureBlobSettings(timeout, create);
    }

    private static Duration duration(BackendConfig config, String value) {
        try {
            // the same duration syntax as every other option
            return LockOptions.builder().set("lease", value).build().lease();
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException("option 'timeout' of " + config.redactedLocation()
                    + " must be a positive duration such as 500ms or 5s, was '" + value + "'");
        }
    }

    static boolean bool(BackendConfig config, String name, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new LockConfigurationException("option '" + name + "' of " + config.redactedLocation()
                    + " must be true or false, was '" + value + "'");
        };
    }
}
