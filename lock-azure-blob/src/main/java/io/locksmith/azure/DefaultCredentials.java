package io.locksmith.azure;

import com.azure.core.credential.TokenCredential;
import io.locksmith.LockConfigurationException;

/**
 * The default Azure credential chain (environment, workload and managed identity, Azure CLI, ...)
 * from {@code com.azure:azure-identity}, an optional dependency: this class is the only one that
 * touches it, so the provider loads without it and says what to add when it is asked for.
 */
final class DefaultCredentials {

    private DefaultCredentials() {}

    static TokenCredential chain(String location) {
        try {
            return Identity.build();
        } catch (NoClassDefFoundError e) {
            throw new LockConfigurationException("no credentials for " + location + ": give account-key or sas-token,"
                    + " use a connection string, or add com.azure:azure-identity to the class path for the default"
                    + " Azure credential chain");
        }
    }

    /** Loaded only when called, so a missing azure-identity is a NoClassDefFoundError caught above. */
    private static final class Identity {
        static TokenCredential build() {
            return new com.azure.identity.DefaultAzureCredentialBuilder().build();
        }
    }
}
