package io.locksmith.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Says which backend a {@link TestServer} or {@link TestCluster} parameter wants from
 * {@link TestServersExtension}.
 *
 * <pre>{@code
 * @ExtendWith(TestServersExtension.class)
 * class RedisLockTest {
 *     @Test
 *     void survivesRestart(@Server(Backend.REDIS) TestServer redis) { ... }
 *
 *     @Test
 *     void keepsServing(@Server(Backend.ETCD) TestCluster etcd) { ... }
 * }
 * }</pre>
 */
@Documented
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface Server {

    /**
     * The backend of the server.
     *
     * @return the backend
     */
    Backend value();
}
