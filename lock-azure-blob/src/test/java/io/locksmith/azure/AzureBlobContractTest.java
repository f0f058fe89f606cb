package io.locksmith.azure;

import io.locksmith.tck.LockContract;
import io.locksmith.tck.TckSubject;
import io.locksmith.testing.TestServers;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * The whole compatibility kit against Azurite, with 15 s leases (Azure's shortest). The rules run
 * side by side: each uses names and clients (with proxies) of its own, and none restarts the
 * server. The many-locks rule runs alone, since it renews a thousand leases one request each and
 * would starve the others on one Azurite; so does {@link AzureBlobBackendTest}, which restarts it.
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(providers = AzureBlobContractTest.ManyLocksAlone.class)
class AzureBlobContractTest extends LockContract {

    /** The shared resource: the one Azurite every test class of this module talks to. */
    static final String AZURITE = "azurite";

    @Override
    protected TckSubject subject() {
        return new AzureBlobSubject(TestServers.azurite());
    }

    /** Gives the many-locks rule Azurite to itself, and every other rule a shared hold on it. */
    public static final class ManyLocksAlone implements ResourceLocksProvider {
        @Override
        public Set<Lock> provideForMethod(List<Class<?>> enclosingInstanceTypes, Class<?> testClass, Method testMethod) {
            boolean alone = testMethod.getName().equals("required_aThousandLocksStayHeldByOneClient");
            return Set.of(new Lock(AZURITE, alone ? ResourceAccessMode.READ_WRITE : ResourceAccessMode.READ));
        }
    }
}
