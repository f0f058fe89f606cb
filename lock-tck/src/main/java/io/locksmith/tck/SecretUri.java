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
 * @param uri a URI of the provider under test with a credential (the user-info's password, or a
 *     secret option) for the subject's server
 * @param secret the credential, as it appears in both URIs; at least 8 characters, so that finding
 *     it in a text means it was shown
 * @param unreachable the same URI with the same credential, aimed where no server answers (a
 *     closed port), so that opening or using it fails
 * @param accepted whether the server accepts the credential, so that a client must open from
 *     {@code uri} and the kit checks what it shows while it works and fails; {@code false} for a
 *     test server that has no users to log in as, where the kit checks what the refusal shows
 */
public record SecretUri(String uri, String secret, String unreachable, boolean accepted) {

    /**
     * A URI whose credential the server accepts.
     *
     * @param uri a URI with a credential the subject's server accepts
     * @param secret the credential
     * @param unreachable the same URI aimed where no server answers
     */
    public SecretUri(String uri, String secret, String unreachable) {
        this(uri, secret, unreachable, true);
    }

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
        return "SecretUri[" + uri.replace(secret, "****") + ", unreachable " + unreachable.replace(secret, "****")
                + (accepted ? "" : ", refused") + "]";
    }
}
