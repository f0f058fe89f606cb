package io.locksmith.bench;

import com.sun.management.OperatingSystemMXBean;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import io.locksmith.spi.BackendConfig;
import io.locksmith.spi.LockProvider;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * One client holds many locks with automatic renewal for a while: how many renewal calls the core
 * makes per tick (each is one server call on Redis and PostgreSQL; see each backend's page for
 * what one call costs there), the client's CPU, and the client heap each held lock takes.
 */
final class HeldAtScale {

    /**
     * What the scenario measured.
     *
     * @param locks locks held
     * @param callsPerTick renewal calls per renewal tick
     * @param cpuPercent the client process's CPU while holding, in percent of one core
     * @param heapBytesPerLock client heap per held lock, after a full GC
     * @param lost locks not held at the end
     */
    record Outcome(int locks, double callsPerTick, double cpuPercent, double heapBytesPerLock, long lost) {}

    private HeldAtScale() {}

    static Outcome run(String uri, int count, Duration hold, Duration lease) {
        LockOptions options = LockOptions.builder().lease(lease).build();
        CountingBackend[] counting = new CountingBackend[1];
        List<LockHandle> held = new ArrayList<>(count);
        long heapBefore = usedHeapAfterGc();
        try (LockClient client = LockClient.of(events -> counting[0] = new CountingBackend(open(uri, options, events)),
                options)) {
            for (int i = 0; i < count; i++) {
                held.add(client.lock("bench-held-" + i).acquire(Duration.ofSeconds(30)));
            }
            long heapAfter = usedHeapAfterGc();
            OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpuBefore = os.getProcessCpuTime();
            long callsBefore = counting[0].renewCalls.get();
            long start = System.nanoTime();
            long end = start + hold.toNanos();
            while (System.nanoTime() < end) {
                java.util.concurrent.locks.LockSupport.parkNanos(end - System.nanoTime()); // time is the subject
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = (os.getProcessCpuTime() - cpuBefore) / 1e9 / seconds * 100;
            long calls = counting[0].renewCalls.get() - callsBefore;
            double ticks = hold.toNanos() / (double) lease.dividedBy(3).toNanos();
            long lost = held.stream().filter(h -> !h.isHeld()).count();
            held.forEach(LockHandle::close);
            return new Outcome(count, calls / ticks, cpu, (heapAfter - heapBefore) / (double) count, lost);
        }
    }

    /** Opens the backend for a URI through its provider, the way the core would, minus option parsing. */
    private static io.locksmith.spi.LockBackend open(String uri, LockOptions options, io.locksmith.spi.BackendEvents events) {
        String scheme = uri.substring(0, uri.indexOf(':')).toLowerCase(Locale.ROOT);
        for (LockProvider p : ServiceLoader.load(LockProvider.class)) {
            if (p.schemes().contains(scheme)) {
                Map<String, String> own = new HashMap<>();
                String location = splitOptions(uri, p, own);
                return p.open(new BackendConfig(scheme, location, own, options, events));
            }
        }
        throw new IllegalArgumentException("no provider for " + scheme);
    }

    private static String splitOptions(String uri, LockProvider provider, Map<String, String> own) {
        int q = uri.indexOf('?');
        if (q < 0) {
            return uri;
        }
        List<String> kept = new ArrayList<>();
        for (String pair : uri.substring(q + 1).split("&")) {
            String[] kv = pair.split("=", 2);
            if (provider.optionNames().contains(kv[0])) {
                own.put(kv[0], kv.length > 1 ? kv[1] : "");
            } else {
                kept.add(pair);
            }
        }
        return uri.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
