package io.locksmith.testing;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects test servers into test and lifecycle methods and puts them back into service after
 * each test.
 *
 * <ul>
 *   <li>{@code @Server(Backend.X) TestServer} — the single server of that backend;</li>
 *   <li>{@code @Server(Backend.ETCD) TestCluster} or {@code @Server(Backend.ZOOKEEPER) TestCluster}
 *       — the 3-member cluster;</li>
 *   <li>{@code RedisSentinelGroup} — Redis master, replica and Sentinel.</li>
 * </ul>
 *
 * <p>After each test, every server the test's context received is resumed if paused and
 * restarted if killed, so the next test finds it serving.
 *
 * <pre>{@code
 * @ExtendWith(TestServersExtension.class)
 * class RedisLockTest {
 *     @Test
 *     void freesTheLockWhenTheServerComesBack(@Server(Backend.REDIS) TestServer redis) {
 *         redis.kill();
 *         redis.restart();
 *     }
 * }
 * }</pre>
 */
public final class TestServersExtension implements ParameterResolver, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(TestServersExtension.class);
    private static final String USED = "used";

    /** Creates the extension; JUnit does this for {@code @ExtendWith(TestServersExtension.class)}. */
    public TestServersExtension() {}

    /**
     * Supports {@link TestServer} and {@link TestCluster} parameters (which need {@link Server}) and
     * {@link RedisSentinelGroup} parameters.
     *
     * @param parameter the parameter
     * @param context the current extension context
     * @return whether this extension resolves the parameter
     */
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == TestServer.class || type == TestCluster.class || type == RedisSentinelGroup.class;
    }

    /**
     * Starts (once per JVM) and returns the server the parameter asks for.
     *
     * @param parameter the parameter
     * @param context the current extension context
     * @return the server, cluster or group
     * @throws ParameterResolutionException if a {@code TestServer} or {@code TestCluster} parameter
     *     lacks {@link Server}, or asks for a cluster of a backend that has none
     * @throws TestServerException if the server cannot be provided
     */
    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        Object resolved;
        if (type == RedisSentinelGroup.class) {
            resolved = TestServers.redisWithReplicaAndSentinel();
        } else {
            Optional<Server> server = parameter.findAnnotation(Server.class);
            if (server.isEmpty()) {
                throw new ParameterResolutionException(
                        "parameter " + parameter.getParameter().getName() + " of " + parameter.getDeclaringExecutable()
                                + " needs @Server(Backend.…) to say which server it wants");
            }
            Backend backend = server.get().value();
            if (type == TestServer.class) {
                resolved = TestServers.server(backend);
            } else if (backend == Backend.ETCD) {
                resolved = TestServers.etcdCluster();
            } else if (backend == Backend.ZOOKEEPER) {
                resolved = TestServers.zookeeperEnsemble();
            } else {
                throw new ParameterResolutionException("there is no " + backend.displayName()
                        + " cluster; TestCluster parameters take Backend.ETCD or Backend.ZOOKEEPER");
            }
        }
        used(context).add(resolved);
        return resolved;
    }

    /**
     * Resumes paused and restarts killed servers that this test's context received.
     *
     * @param context the finished test's context
     */
    @Override
    public void afterEach(ExtensionContext context) {
        for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
            for (Object server : used(c)) {
                if (server instanceof LocalServer local) {
                    local.heal();
                } else if (server instanceof LocalCluster cluster) {
                    cluster.heal();
                } else if (server instanceof LocalSentinelGroup group) {
                    group.heal();
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> used(ExtensionContext context) {
        // keyed by the context's id, so a child's store does not hand out its parent's list
        return context.getStore(NAMESPACE)
                .computeIfAbsent(USED + context.getUniqueId(), key -> new CopyOnWriteArrayList<>(), List.class);
    }
}
