package io.locksmith.spi;

import io.locksmith.LockConfigurationException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A lock URI's address, parsed once and decoded once, for every backend whose URI has the form
 * {@code scheme://[user[:password]@]host[:port][,host[:port]...][/path][?query][#fragment]}: one
 * host or several (a cluster's, a sentinel group's, an ensemble's), IPv6 hosts in brackets. The
 * user-info ends at the last {@code @} before the path, so a password may hold an unencoded
 * {@code @}. The password is a {@link Secret}; {@link #toString()} never shows it.
 */
public final class BackendAddress {

    /**
     * One host of an address.
     *
     * @param host the host name or address, without brackets
     * @param port the port, or -1 if the URI gave none
     */
    public record HostPort(String host, int port) {

        /**
         * @param defaultPort the port to use where the URI gave none
         * @return the port
         */
        public int portOr(int defaultPort) {
            return port < 0 ? defaultPort : port;
        }

        /** @return {@code host:port}, IPv6 hosts in brackets; the port left out if none was given */
        @Override
        public String toString() {
            String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
            return port < 0 ? h : h + ":" + port;
        }
    }

    private final String scheme;
    private final String user;
    private final Secret password;
    private final List<HostPort> hosts;
    private final String path;
    private final String query;
    private final String fragment;

    private BackendAddress(
            String scheme,
            String user,
            Secret password,
            List<HostPort> hosts,
            String path,
            String query,
            String fragment) {
        this.scheme = scheme;
        this.user = user;
        this.password = password;
        this.hosts = List.copyOf(hosts);
        this.path = path;
        this.query = query;
        this.fragment = fragment;
    }

    /**
     * Parses a location.
     *
     * @param location a URI of the form above
     * @return the address
     * @throws LockConfigurationException naming the location (credentials masked) if it has no
     *     {@code //}, no host, a malformed port or malformed percent-encoding
     */
    public static BackendAddress parse(String location) {
        String redacted = Redaction.redact(location);
        int sep = location.indexOf("://");
        if (sep <= 0) {
            throw malformed(redacted, "expected scheme://host");
        }
        String scheme = location.substring(0, sep).toLowerCase(java.util.Locale.ROOT);
        String rest = location.substring(sep + 3);
        String fragment = null;
        int hash = rest.indexOf('#', Math.max(0, rest.lastIndexOf('@')));
        if (hash >= 0) {
            fragment = decode(rest.substring(hash + 1), redacted);
            rest = rest.substring(0, hash);
        }
        int slash = rest.indexOf('/', Math.max(0, rest.lastIndexOf('@')));
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String pathAndQuery = slash < 0 ? "" : rest.substring(slash);
        int at = authority.lastIndexOf('@');
        String user = null;
        Secret password = null;
        if (at >= 0) {
            String info = authority.substring(0, at);
            authority = authority.substring(at + 1);
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon), redacted);
            password = colon < 0 ? null : Secret.of(decode(info.substring(colon + 1), redacted));
        }
        String query = null;
        int q = pathAndQuery.indexOf('?');
        if (q < 0 && authority.indexOf('?') >= 0) { // scheme://host?x=y
            q = authority.indexOf('?');
            pathAndQuery = authority.substring(q);
            authority = authority.substring(0, q);
            q = 0;
        }
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        if (q >= 0) {
            query = pathAndQuery.substring(q + 1);
        }
        List<HostPort> hosts = new ArrayList<>();
        for (String part : authority.split(",", -1)) {
            hosts.add(hostPort(part.trim(), redacted));
        }
        return new BackendAddress(scheme, user, password, hosts, decode(path, redacted), query, fragment);
    }

    private static HostPort hostPort(String part, String redacted) {
        if (part.isEmpty()) {
            throw malformed(redacted, "a host is missing");
        }
        String host;
        String port = null;
        if (part.startsWith("[")) {
            int close = part.indexOf(']');
            if (close < 0) {
                throw malformed(redacted, "an IPv6 host has no closing ']'");
            }
            host = part.substring(1, close);
            String after = part.substring(close + 1);
            if (after.startsWith(":")) {
                port = after.substring(1);
            } else if (!after.isEmpty()) {
                throw malformed(redacted, "unexpected '" + after + "' after host [" + host + "]");
            }
        } else {
            int colon = part.lastIndexOf(':');
            host = colon < 0 ? part : part.substring(0, colon);
            port = colon < 0 ? null : part.substring(colon + 1);
        }
        if (host.isEmpty()) {
            throw malformed(redacted, "a host is missing");
        }
        if (port == null) {
            return new HostPort(host, -1);
        }
        try {
            int p = Integer.parseInt(port);
            if (p < 1 || p > 65535) {
                throw new NumberFormatException();
            }
            return new HostPort(host, p);
        } catch (NumberFormatException e) {
            throw malformed(redacted, "port '" + port + "' of host " + host + " is not a number from 1 to 65535");
        }
    }

    private static String decode(String s, String redacted) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw malformed(redacted, "bad percent-encoding");
        }
    }

    private static LockConfigurationException malformed(String redacted, String why) {
        return new LockConfigurationException("malformed lock URI '" + redacted + "': " + why);
    }

    /** @return the scheme, lower case */
    public String scheme() {
        return scheme;
    }

    /** @return the user-info's user (or, with no colon, the whole user-info), decoded */
    public Optional<String> user() {
        return Optional.ofNullable(user);
    }

    /** @return the user-info's password (after the first colon), decoded */
    public Optional<Secret> password() {
        return Optional.ofNullable(password);
    }

    /** @return the hosts, in the order given; at least one */
    public List<HostPort> hosts() {
        return hosts;
    }

    /** @return the first host */
    public HostPort host() {
        return hosts.get(0);
    }

    /** @return the path, decoded, with its leading {@code /}; empty if none */
    public String path() {
        return path;
    }

    /** @return the query left in the location (parameters passed to the client library), raw */
    public Optional<String> query() {
        return Optional.ofNullable(query);
    }

    /** @return the fragment, decoded */
    public Optional<String> fragment() {
        return Optional.ofNullable(fragment);
    }

    /** @return the address without user-info, query or fragment: {@code scheme://h1:p1,h2:p2/path} */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(scheme).append("://");
        for (int i = 0; i < hosts.size(); i++) {
            s.append(i == 0 ? "" : ",").append(hosts.get(i));
        }
        return s.append(path).toString();
    }
}
