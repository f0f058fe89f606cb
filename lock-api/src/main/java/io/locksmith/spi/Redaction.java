package io.locksmith.spi;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks credentials before text reaches a message, a log line or a {@code toString()}: the
 * password in a URI's user-info, and the values of parameters and options that look secret
 * ({@code password}, {@code AccountKey}, {@code sig}, {@code token}, ...). The core uses it on
 * every location it shows; backends use it on client-library messages that may echo one.
 */
public final class Redaction {

    /** What a masked value is replaced with. */
    public static final String MASK = "****";

    private static final Set<String> SECRET_NAMES = Set.of(
            "password",
            "passwd",
            "pwd",
            "pass",
            "secret",
            "token",
            "accountkey",
            "sharedaccesssignature",
            "sig",
            "sas",
            "apikey",
            "api_key",
            "api-key",
            "access_token",
            "client_secret",
            "credential",
            "credentials",
            "auth",
            "key");

    private static final Pattern PARAM = Pattern.compile("(^|[?&;])([^=&;?#]+)=([^&;#]*)");

    private Redaction() {}

    /**
     * @param location a URI, JDBC URL or connection string
     * @return the same text with the URI's user-info password and every secret-looking parameter
     *     value replaced by {@value #MASK}
     */
    public static String redact(String location) {
        if (location == null) {
            return null;
        }
        String s = maskUserInfo(location);
        Matcher m = PARAM.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = isSecret(m.group(2)) ? m.group(1) + m.group(2) + "=" + MASK : m.group();
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * @param options option names to values
     * @return a copy, sorted by name, with secret-looking values masked
     */
    public static Map<String, String> redactOptions(Map<String, String> options) {
        Map<String, String> out = new TreeMap<>();
        options.forEach((k, v) -> out.put(k, isSecret(k) ? MASK : v));
        return out;
    }

    /**
     * @param name an option or parameter name
     * @return whether its value must never be shown
     */
    public static boolean isSecret(String name) {
        // "password1".."password3" (MySQL Connector/J's multi-factor passwords) and the like
        String n = name.trim().toLowerCase(Locale.ROOT).replaceFirst("[0-9]+$", "");
        return SECRET_NAMES.contains(n)
                || n.endsWith("password")
                || n.endsWith("secret")
                || n.endsWith("token")
                || n.endsWith("key");
    }

    // "scheme://user:password@host" -> "scheme://user:****@host"; a user-info without a colon may be
    // a bare password (Redis accepts "redis://password@host"), so it is masked whole. The user-info
    // ends at the last '@' before the path: a password may hold '?', '#' or '@' unencoded, and
    // masking too much is better than showing part of one.
    private static String maskUserInfo(String s) {
        int start = s.indexOf("://");
        if (start < 0) {
            return s;
        }
        start += 3;
        int path = s.indexOf('/', start);
        int end = path < 0 ? s.length() : path;
        int at = s.lastIndexOf('@', end - 1);
        if (at < start) {
            return s;
        }
        String userInfo = s.substring(start, at);
        int colon = userInfo.indexOf(':');
        String masked = colon < 0 ? MASK : userInfo.substring(0, colon + 1) + MASK;
        return s.substring(0, start) + masked + s.substring(at);
    }
}
