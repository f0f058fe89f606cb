package io.locksmith.tck;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * No credential in any message: a client opened from a URI with a password, and its failures
 * (a wrong password, a bad option, a server that does not answer, a wait that times out, a closed
 * client), never show the password in an exception's message or cause, a {@code toString()}, or
 * a line written to the console or the JVM's log while it happens.
 */
interface SecretRules extends Rules {

    @Test
    default void required_noMessageToStringOrLogLineShowsACredential() {
        LockContract c = contract();
        c.requireHook(Fault.SECRET_URI);
        SecretUri given = c.subjectUnderTest()
                .secretUri()
                .orElseGet(() -> Assertions.fail(c.says("the provider"
                        + " supplies no hook to " + Fault.SECRET_URI.does()
                        + " (TckSubject.secretUri()); supply it, or declare"
                        + " Capabilities.builder().lacks(Fault.SECRET_URI)")));
        // another credential of the same shape, which nothing but this rule knows
        String wrong = "kit" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36)
                + given.secret()
                        .substring(Math.min(given.secret().length(), 16))
                        .replace("%", "");
        LockOptions options = LockOptions.builder().lease(c.lease()).build();
        Shown shown = new Shown();
        try (Output output = Output.capture()) {
            LockClient holder = shown.call(
                    "opening a client from the URI with its credential", () -> LockClient.open(given.uri(), options));
            c.check(
                    holder != null || !given.accepted(),
                    "a client must open from the subject's URI with a credential" + " its server accepts; it failed: "
                            + shown.masked(given.secret(), wrong));
            if (holder != null) {
                working(c, shown, holder, given.uri(), options);
            }
            opened(shown, "a bad option value", () -> LockClient.open(withOption(given.uri(), "lease=soon"), options));
            opened(
                    shown,
                    "an unknown option",
                    () -> LockClient.open(withOption(given.uri(), "kit-unknown=1"), options));
            opened(
                    shown,
                    "a wrong credential",
                    () -> LockClient.open(given.uri().replace(given.secret(), wrong), options));
            opened(shown, "a server that does not answer", () -> LockClient.open(given.unreachable(), options));
            shown.add("the console and the JVM's log", output.text());
        }
        // as given, and percent-encoded as a URI carries it
        List<String> leaks = shown.leaks(
                given.secret(),
                wrong,
                URLEncoder.encode(given.secret(), StandardCharsets.UTF_8),
                URLEncoder.encode(wrong, StandardCharsets.UTF_8));
        c.check(leaks.isEmpty(), String.join("; and ", leaks));
    }

    /** Uses a client and a second one until a wait times out, then closes both and uses them closed. */
    private static void working(LockContract c, Shown shown, LockClient holder, String uri, LockOptions options) {
        String name = c.name("secret");
        LockClient waiter = LockClient.open(uri, options);
        try {
            DistributedLock lock = holder.lock(name);
            LockHandle held = lock.acquire(c.margin());
            shown.add("the client", holder);
            shown.add("its backend", holder.backend());
            shown.add("its lock", lock);
            shown.add("its handle", held);
            shown.call("the lock's status", lock::status);
            shown.call("a wait that times out", () -> waiter.lock(name).acquire(Duration.ofMillis(50)));
            held.close();
            shown.add("a released handle", held);
        } finally {
            waiter.close();
            holder.close();
        }
        shown.call("a closed client's lock", () -> holder.lock(name).acquire(Duration.ZERO));
        shown.call("a lock of a closed client", () -> waiter.lock(name));
    }

    /** Opens a client and, if it opens, uses and closes it; whatever it shows or throws on the way is seen. */
    private static void opened(Shown shown, String what, Supplier<LockClient> open) {
        LockClient client = shown.call("opening a client with " + what, open);
        if (client != null) {
            try {
                shown.add("a client with " + what, client);
                shown.call(
                        "an attempt through a client with " + what,
                        () -> client.lock("kit-secret").tryAcquire());
            } finally {
                shown.call("closing a client with " + what, () -> {
                    client.close();
                    return null;
                });
            }
        }
    }

    private static String withOption(String uri, String option) {
        return uri + (uri.contains("?") ? "&" : "?") + option;
    }

    /** What the kit saw, by where it saw it: texts, objects' {@code toString()}, and failures with their causes. */
    final class Shown {
        private final List<String> where = new ArrayList<>();
        private final List<String> texts = new ArrayList<>();

        void add(String what, Object value) {
            where.add(what);
            texts.add(String.valueOf(value));
        }

        /** @return what the call returned, its text seen; {@code null} if it threw, its exception seen */
        <T> T call(String what, Supplier<T> call) {
            try {
                T value = call.get();
                if (value instanceof Optional<?> o) {
                    o.ifPresent(v -> add(what + " (what it returned)", v));
                } else if (value != null) {
                    add(what + " (what it returned)", value);
                }
                return value;
            } catch (RuntimeException e) {
                add(what + " (what it threw)", chain(e, new StringBuilder(), new java.util.HashSet<>()));
                return null;
            }
        }

        /** @return each exception's text, then its causes' and suppressed exceptions', one a line */
        private static StringBuilder chain(Throwable t, StringBuilder out, java.util.Set<Throwable> seen) {
            if (t != null && seen.add(t)) {
                out.append(t).append('\n');
                chain(t.getCause(), out, seen);
                for (Throwable s : t.getSuppressed()) {
                    chain(s, out, seen);
                }
            }
            return out;
        }

        /** @return the last failure seen, the credentials masked */
        String masked(String... secrets) {
            return mask(texts.isEmpty() ? "" : texts.get(texts.size() - 1), secrets);
        }

        /** @return one sentence per text that shows a credential, saying where, the credential masked */
        List<String> leaks(String... secrets) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < texts.size(); i++) {
                String text = texts.get(i);
                for (String s : secrets) {
                    if (text.contains(s)) {
                        out.add(where.get(i) + " must never show a credential from the URI, and showed it (masked here"
                                + " as <credential>) in: " + mask(linesWith(text, secrets), secrets));
                        break;
                    }
                }
            }
            return out;
        }

        private static String linesWith(String text, String... secrets) {
            return String.join(
                    " | ",
                    text.lines()
                            .filter(line -> {
                                for (String s : secrets) {
                                    if (line.contains(s)) {
                                        return true;
                                    }
                                }
                                return false;
                            })
                            .limit(5)
                            .toList());
        }

        private static String mask(String text, String... secrets) {
            String out = text;
            for (String s : secrets) {
                out = out.replace(s, "<credential>");
            }
            return out.length() > 4_000 ? out.substring(0, 4_000) + "..." : out;
        }
    }
}
