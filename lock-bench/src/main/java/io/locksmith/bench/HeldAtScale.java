package io.locksmith.bench;

import com.sun.management.OperatingSystemMXBean;
import io.locksmith.LockClient;
import io.locksmith.LockHandle;
import io.locksmith.LockOptions;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
        try (LockClient client = LockClient.open(uri, options, backend -> counting[0] = new CountingBackend(backend))) {
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

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
