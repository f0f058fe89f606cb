package io.locksmith.zookeeper;

import io.locksmith.LockBackendException;
import io.locksmith.spi.Redaction;
import org.apache.zookeeper.KeeperException;

/** Turns ZooKeeper's and Curator's checked failures into messages that name the lock and the server. */
final class Failures {

    private Failures() {}

    /**
     * @param what the operation, such as {@code "acquiring lock 'x'"}
     * @param where the backend's description, credentials masked
     * @param e what ZooKeeper or Curator threw
     * @return the exception to throw
     */
    static LockBackendException of(String what, String where, Throwable e) {
        if (e instanceof LockBackendException lbe) {
            return lbe;
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return new LockBackendException(what + " on " + where + " was interrupted", e);
        }
        if (e instanceof KeeperException ke) {
            String reason = switch (ke.code()) {
                case CONNECTIONLOSS, OPERATIONTIMEOUT, REQUESTTIMEOUT ->
                    "no ZooKeeper server answered within the connection timeout";
                case SESSIONEXPIRED, SESSIONMOVED -> "the ZooKeeper session expired";
                case NOAUTH, AUTHFAILED, INVALIDACL ->
                    "not authorized (" + ke.code() + "): check the user, the password and the ACLs under "
                            + LockPaths.ROOT;
                default -> ke.code() + ": " + Redaction.redact(String.valueOf(ke.getMessage()));
            };
            return new LockBackendException(what + " failed on " + where + ": " + reason, e);
        }
        return new LockBackendException(
                what + " failed on " + where + ": " + Redaction.redact(String.valueOf(e.getMessage())), e);
    }

    /** @return whether the failure is about reaching the server: worth trying again once it answers */
    static boolean isConnection(Throwable e) {
        Throwable t = e instanceof LockBackendException && e.getCause() != null ? e.getCause() : e;
        return t instanceof KeeperException.ConnectionLossException
                || t instanceof KeeperException.SessionExpiredException
                || t instanceof KeeperException.OperationTimeoutException
                || t instanceof KeeperException.SessionMovedException;
    }
}
