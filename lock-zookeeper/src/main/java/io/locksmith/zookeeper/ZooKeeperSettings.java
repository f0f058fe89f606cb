package io.locksmith.zookeeper;

import io.locksmith.LockConfigurationException;
import io.locksmith.LockOptions;
import io.locksmith.spi.BackendConfig;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.ACL;

/**
 * A ZooKeeper URI and the backend's options, checked: {@code zookeeper://[user:password@]h1:2181,
 * h2:2181[/chroot]}. The password is kept out of {@link #toString()}.
 */
final class ZooKeeperSettings {

    static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(5);

    private final String connectString;
    private final String chroot;
    private final Duration sessionTimeout;
    private final Duration connectionTimeout;
    private final String user;
    private final String password;
    private final String acl;
    private final Duration suspendedGrace;

    private ZooKeeperSettings(String connectString, String chroot, Duration sessionTimeout, Duration connectionTimeout,
            String user, String password, String acl, Duration suspendedGrace) {
        this.connectString = connectString;
        this.chroot = chroot;
        this.sessionTimeout = sessionTimeout;
        this.connectionTimeout = connectionTimeout;
        this.user = user;
        this.password = password;
        this.acl = acl;
        this.suspendedGrace = suspendedGrace;
    }

    static ZooKeeperSettings of(BackendConfig config) {
        String where = config.redactedLocation();
        String rest = config.location().substring(config.location().indexOf("://") + 3);
        int query = rest.indexOf('?');
        if (query >= 0) {
            rest = rest.substring(0, query);
        }
        String userInfo = null;
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            userInfo = rest.substring(0, at);
            rest = rest.substring(at + 1);
        }
        int slash = rest.indexOf('/');
        String hosts = slash < 0 ? rest : rest.substring(0, slash);
        String chroot = slash < 0 ? "" : rest.substring(slash);
        if (chroot.equals("/")) {
            chroot = "";
        }
        List<String> servers = new ArrayList<>();
        for (String host : hosts.split(",", -1)) {
            servers.add(hostAndPort(host.trim(), where));
        }
        if (!chroot.isEmpty()) {
            try {
                PathUtils.validatePath(chroot);
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException("malformed chroot '" + chroot + "' in ZooKeeper URI '" + where
                        + "': " + e.getMessage());
            }
        }
        String user = config.option("user").orElse(null);
        String password = config.option("password").orElse(null);
        if (userInfo != null && !userInfo.isEmpty()) {
            if (user != null || password != null) {
                throw new LockConfigurationException("ZooKeeper URI '" + where
                        + "' has credentials both in the URI and in the user/password options: give them once");
            }
            int colon = userInfo.indexOf(':');
            user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
        }
        if (user == null && password != null) {
            throw new LockConfigurationException("option 'password' of " + where + " needs a user too");
        }
        Duration session = config.option("session-timeout").map(v -> duration(config, "session-timeout", v))
                .orElse(config.lockOptions().lease());
        Duration connection = config.option("connection-timeout").map(v -> duration(config, "connection-timeout", v))
                .orElse(DEFAULT_CONNECTION_TIMEOUT);
        Duration grace = config.option("suspended-grace").map(v -> duration(config, "suspended-grace", v))
                .orElse(null);
        String acl = config.option("acl").map(v -> v.trim().toLowerCase(Locale.ROOT))
                .orElse(user == null ? "open" : "creator");
        if (!List.of("open", "creator", "creator-read").contains(acl)) {
            throw new LockConfigurationException("option 'acl' of " + where
                    + " must be open, creator or creator-read, was '" + config.option("acl").orElse("") + "'");
        }
        if (!acl.equals("open") && user == null) {
            throw new LockConfigurationException("option acl=" + acl + " of " + where
                    + " needs digest credentials (user and password)");
        }
        return new ZooKeeperSettings(String.join(",", servers) + chroot, chroot, session, connection, user, password,
                acl, grace);
    }

    private static String hostAndPort(String host, String where) {
        if (host.isEmpty()) {
            throw new LockConfigurationException("malformed ZooKeeper URI '" + where
                    + "': empty host (expected zookeeper://host1:2181,host2:2181[/chroot])");
        }
        int colon = host.lastIndexOf(':');
        if (colon < 0 || host.endsWith("]")) {
            return host + ":2181";
        }
        String port = host.substring(colon + 1);
        try {
            int p = Integer.parseInt(port);
            if (p < 1 || p > 65535) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            throw new LockConfigurationException("malformed ZooKeeper URI '" + where + "': port '" + port
                    + "' must be a number from 1 to 65535");
        }
        return host;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static Duration duration(BackendConfig config, String name, String value) {
        try {
            // the same duration syntax as every other option
            return LockOptions.builder().set("lease", value).build().lease();
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException("option '" + name + "' of " + config.redactedLocation()
                    + " must be a positive duration such as 500ms or 5s, was '" + value + "'");
        }
    }

    /** @return hosts and ports, then the chroot if any, as the ZooKeeper client takes them */
    String connectString() {
        return connectString;
    }

    String chroot() {
        return chroot;
    }

    Duration sessionTimeout() {
        return sessionTimeout;
    }

    Duration connectionTimeout() {
        return connectionTimeout;
    }

    /** @return how long locks stay safe after the connection drops; null for the default (the session timeout) */
    Duration suspendedGrace() {
        return suspendedGrace;
    }

    /** @return {@code user:password} for ZooKeeper's digest scheme, or null without credentials */
    byte[] digest() {
        return user == null ? null : (user + ":" + password).getBytes(StandardCharsets.UTF_8);
    }

    boolean hasCredentials() {
        return user != null;
    }

    /** @return the ACL every node the client creates gets */
    List<ACL> acl() {
        return switch (acl) {
            case "creator" -> ZooDefs.Ids.CREATOR_ALL_ACL;
            case "creator-read" -> {
                List<ACL> both = new ArrayList<>(ZooDefs.Ids.CREATOR_ALL_ACL);
                both.addAll(ZooDefs.Ids.READ_ACL_UNSAFE);
                yield List.copyOf(both);
            }
            default -> ZooDefs.Ids.OPEN_ACL_UNSAFE;
        };
    }

    @Override
    public String toString() {
        return "ZooKeeperSettings[" + connectString + ", session=" + sessionTimeout + ", connection=" + connectionTimeout
                + ", user=" + (user == null ? "none" : user + ":****") + ", acl=" + acl + "]";
    }
}
