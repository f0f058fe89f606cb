package io.locksmith.azure;

import com.azure.storage.blob.models.BlobStorageException;
import io.locksmith.spi.Redaction;
import java.util.concurrent.TimeoutException;
import reactor.core.Exceptions;

/**
 * Turns what the Azure SDK throws into short descriptions fit for messages. A storage error is
 * described by its status and error code only: the service's own text can quote the string it
 * signed, and SDK messages can quote URLs that carry a SAS token.
 */
final class AzureFailures {

    private AzureFailures() {}

    /** @return the exception behind reactor's wrapping of checked exceptions */
    static Throwable unwrap(Throwable e) {
        return Exceptions.unwrap(e);
    }

    static BlobStorageException storage(Throwable e) {
        Throwable t = unwrap(e);
        return t instanceof BlobStorageException s ? s : null;
    }

    static int status(Throwable e) {
        BlobStorageException s = storage(e);
        return s == null ? -1 : s.getStatusCode();
    }

    static String code(Throwable e) {
        BlobStorageException s = storage(e);
        return s == null || s.getErrorCode() == null ? "" : s.getErrorCode().toString();
    }

    static boolean is(Throwable e, int status, String code) {
        return status(e) == status && code(e).equalsIgnoreCase(code);
    }

    // the service's codes for refused credentials; Azure says AuthenticationFailed for an expired
    // SAS, Azurite AuthorizationFailure
    private static String hint(int status, String code) {
        if (status != 403) {
            return "";
        }
        if ("AuthenticationFailed".equalsIgnoreCase(code)) {
            return " (a wrong account key, or a SAS token that is invalid or expired)";
        }
        if ("AuthorizationFailure".equalsIgnoreCase(code)) {
            return " (a SAS token that is expired, not yet valid, or not allowed this operation)";
        }
        return "";
    }

    /** @return e.g. {@code 409 LeaseAlreadyPresent}, {@code no answer within 5s}, {@code ConnectException: ...} */
    static String describe(Throwable e, java.time.Duration timeout) {
        Throwable t = unwrap(e);
        if (t instanceof BlobStorageException s) {
            String code = code(s);
            return s.getStatusCode() + (code.isEmpty() ? "" : " " + code) + hint(s.getStatusCode(), code);
        }
        if (t instanceof TimeoutException) {
            return "no answer within " + timeout.toMillis() + " ms";
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return Redaction.redact(root.getClass().getSimpleName() + ": " + root.getMessage());
    }
}
