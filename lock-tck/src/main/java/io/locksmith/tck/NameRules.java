package io.locksmith.tck;

import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Any non-empty name of up to 1,024 characters works, and distinct names never collide. */
interface NameRules extends Rules {

    @Test
    default void required_unusualNamesAreDistinctAndUsable() {
        LockContract c = contract();
        String base = c.name("");
        Set<String> names = new LinkedHashSet<>(List.of(
                base + "Zürich 東京 Ελλάδα",
                base + "\uD83D\uDD12 lock",
                base + "a/b",
                base + "a%2Fb",
                base + "a_b",
                base + "a\\b",
                base + "a:b",
                base + "a*b",
                base + "a?b",
                base + "..",
                base + ".",
                base + "../..",
                base + "'quoted'",
                base + "\"double\"",
                base + "with space",
                base + "with  two spaces",
                base + "tab\there",
                base + "Order",
                base + "order",
                base + "ORDER",
                base + "%",
                base + "%25",
                base + "+",
                base + "&x=1",
                base + "#frag"));
        String longName = (base + "x".repeat(1024)).substring(0, 1024);
        names.add(longName);
        names.add(longName.substring(0, 1023) + "y");
        String emoji = "\uD83D\uDD12".repeat(1024);
        names.add(emoji);
        LockClient holder = c.client();
        LockClient other = c.client();
        List<LockHandle> held = new ArrayList<>();
        for (String n : names) {
            LockHandle h = holder.lock(n).tryAcquire().orElse(null);
            c.check(h != null, "the name '" + abbreviate(n) + "' must be usable and distinct from the names before it");
            c.check(h.name().equals(n), "the handle must carry the name exactly: '" + abbreviate(n) + "'");
            held.add(h);
        }
        for (String n : names) {
            c.check(other.lock(n).tryAcquire().isEmpty(), "another client must see '" + abbreviate(n) + "' as held");
        }
        held.forEach(LockHandle::close);
        for (String n : names) {
            LockHandle again = other.lock(n).acquire(c.margin());
            c.check(again.isHeld(), "'" + abbreviate(n) + "' must be free once released");
            again.close();
        }
        c.check(holder.lock(base + "x").acquire(Duration.ZERO).isHeld(), "an ordinary name must still work");
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 40) + "…(" + s.length() + " chars)";
    }
}
