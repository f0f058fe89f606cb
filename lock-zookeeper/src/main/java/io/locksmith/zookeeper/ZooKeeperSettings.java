package io.locksmith.zookeeper;

import io.locksmith.LockConfigurationException;
import io.locksmith.spi.BackendAddress;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.ACL;

/**
 * A ZooKeeper URI and the backend's options, checked: {@code zookeeper://[user:password@]h1:2181,
 * h2:2181[/chroot]}. The password is kept out of {@link #toString()}.
 */
final class ZooKeeperSettings {

    static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(5);
    private static final int DEFAULT_PORT = 2181;
    private static final List<String> ACLS = List.of("open", "creator", "creator-read");

    private final String connectString;
    private final String chroot;
    private final Duration sessionTimeout;
    private final Duration connectionTimeout;
    private final String user;
    private final Secret password;
    private final String acl;
    private final Duration suspendedGrace;

    private ZooKeeperSettings(
            String connectString,
            String chroot,
            Duration sessionTimeout,
            Duration connectionTimeout,
            String user,
            Secret password,
            String acl,
            Duration suspendedGrace) {
        this.connectString = connectString;
        this.chroot = chroot;
        this.sessionTimeout = sessionTimeout;
        this.connectionTimeout = connectionTimeout;
        this.user = user;
        this.password = password;
        this.acl = acl;
        this.suspendedGrace = suspendedGrace;
    }

    static ZooKeeperSettings of(BackendContext context) {
        String where = context.redactedLocation();
        BackendAddress address = context.address();
        List<String> servers = new ArrayList<>();
        for (BackendAddress.HostPort h : address.hosts()) {
            servers.add(new BackendAddress.HostPort(h.host(), h.portOr(DEFAULT_PORT)).toString());
        }
        String chroot = address.path().equals("/") ? "" : address.path();
        if (address.fragment().isPresent()) { // it would have been part of the chroot's name before
            throw new LockConfigurationException(
                    "malformed ZooKeeper URI '" + where
                            + "': a fragment (#...) has no meaning here; a chroot is the path, such as zookeeper://h1:2181/app");
        }
        if (!chroot.isEmpty()) {
            try {
                PathUtils.validatePath(chroot);
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException(
                        "malformed chroot '" + chroot + "' in ZooKeeper URI '" + where + "': " + e.getMessage());
            }
        }
        String user = context.option("user").orElse(null);
        Secret password = context.secretOption("password").orElse(null);
        Optional<String> uriUser =
                address.user().filter(u -> !u.isEmpty() || address.password().isPresent());
        if (uriUser.isPresent()) {
            if (user != null || password != null) {
                throw new LockConfigurationException("ZooKeeper URI '" + where
                        + "' has credentials both in the URI and in the user/password options: give them once");
            }
            user = uriUser.get();
            password = address.password().orElse(Secret.of(""));
        }
        if (user == null && password != null) {
            throw new LockConfigurationException("option 'password' of " + where + " needs a user too");
        }
        String acl = context.option("acl")
                .map(v -> v.trim().toLowerCase(Locale.ROOT))
                .orElse(user == null ? "open" : "creator");
        if (!ACLS.contains(acl)) {
            throw context.invalid("acl", context.option("acl").orElse(""), "open, creator or creator-read");
        }
        if (!acl.equals("open") && user == null) {
            throw new LockConfigurationException(
                    "option acl=" + acl + " of " + where + " needs digest credentials (user and password)");
        }
        return new ZooKeeperSettings(
                String.join(",", servers) + chroot,
                chroot,
                context.durationOption("session-timeout", context.lockOptions().lease()),
                context.durationOption("connection-timeout", DEFAULT_CONNECTION_TIMEOUT),
                user,
                password,
                acl,
                context.durationOption("suspended-grace", null));
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
        return user == null ? null : (user + ":" + password.reveal()).getBytes(StandardCharsets.UTF_8);
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
        return "ZooKeeperSettings[" + connectString + ", session=" + sessionTimeout + ", connection="
                + connectionTimeout + ", user=" + (user == null ? "none" : user + ":" + password) + ", acl=" + acl
                + "]";
    }
}
