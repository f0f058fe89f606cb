package io.locksmith.tck;

import java.util.Objects;

/**
 * A lock URI that carries a credential, for the kit's rule that no message, {@code toString()} or
 * log line shows one ({@link TckSubject#secretUri()}).
 *
 * <pre>{@code
 * new SecretUri("redis://default:kit-s3cret-pw@127.0.0.1:6379?timeout=2s", "kit-s3cret-pw",
 *         "redis://default:kit-s3cret-pw@127.0.0.1:1?timeout=2s");
 * }</pre>
 *
 * @param uri a URI of the provider under test whose credential (the user-info's password, or a
 *     secret option) its server accepts: a client opens from it
 * @param secret the credential, as it appears in both URIs; at least 8 characters, so that finding
 *     it in a text means it was shown
 * @param unreachable the same URI with the same credential, aimed where no server answers (a
 *     closed port), so that opening or using it fails
 */
public record SecretUri(String uri, String secret, String unreachable) {

    /**
     * @throws IllegalArgumentException if the secret is shorter than 8 characters or missing from a URI
     */
    public SecretUri {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(unreachable, "unreachable");
        if (secret.length() < 8) {
            throw new IllegalArgumentException("the secret must have at least 8 characters, had " + secret.length());
        }
        if (!uri.contains(secret) || !unreachable.contains(secret)) {
            throw new IllegalArgumentException("both URIs must carry the secret as given");
        }
    }

    /** @return the URIs with the secret masked: a record's text must not show it either */
    @Override
    public String toString() {
        return "SecretUri[" + uri.replace(secret, "****") + ", unreachable " + unreachable.replace(secret, "****") + "]";
    }
}
