package io.locksmith.spring;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Defers a lock's release to the end of the transaction active on this thread. Its own class so
 * that spring-tx is loaded only where it is on the class path.
 */
final class TransactionRelease {

    private TransactionRelease() {}

    /**
     * @param release what to run once the transaction has completed, committed or rolled back
     * @return whether a transaction was active and the release deferred; if not, the caller releases
     */
    static boolean registerIfActive(Runnable release) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()
                || !TransactionSynchronizationManager.isActualTransactionActive()) {
            return false;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public int getOrder() {
                // after every other synchronization's afterCompletion: the lock is the last thing let go
                return LOWEST_PRECEDENCE;
            }

            @Override
            public void afterCompletion(int status) {
                release.run();
            }
        });
        return true;
    }
}
