package io.locksmith.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands out loopback ports for test servers, safe across the test JVMs of one machine.
 *
 * <p>Test JVMs run side by side (a parallel reactor build, forked Surefire JVMs), and a port that
 * was free when one of them checked it must still be free when its server binds it. Two things
 * could take it in between, and each is ruled out:
 * <ul>
 *   <li>the kernel, handing the same port to another JVM's bind to port 0 or to any process's
 *       outgoing connection: ports come from below the kernel's ephemeral range
 *       ({@code net.ipv4.ip_local_port_range}), which it never picks from by itself;</li>
 *   <li>another test JVM choosing the same port: a JVM claims a port by holding an exclusive lock on
 *       a file named after it, {@code locksmith-ports/PORT.lock} in the temporary directory, until it
 *       exits. The kernel drops the lock with the process, {@code kill -9} included, so nothing is
 *       left to clean up, and a leftover file claims nothing.</li>
 * </ul>
 * A claimed port is also checked to be free now, since a service of the machine may listen there.
 * A port is never handed out twice by one JVM, so a port freed by a killed server is not given to
 * another one. Where the ephemeral range leaves fewer than {@value #ENOUGH} ports above 20000 (a
 * kernel set to hand out nearly every port), ports come from inside it too, and only the claims
 * keep test JVMs apart.
 */
final class FreePorts {

    private static final int FIRST = 20_000;
    private static final int LAST = 65_535;
    private static final int ENOUGH = 1_000;
    // what most Linux kernels use, where the setting cannot be read
    private static final int[] USUAL_EPHEMERAL = {32_768, 60_999};
    private static final Path CLAIMS = Path.of(System.getProperty("java.io.tmpdir"), "locksmith-ports");

    private static final int[] EPHEMERAL = ephemeralRange();
    private static final boolean AVOID_EPHEMERAL =
            Math.max(0, EPHEMERAL[0] - FIRST) + Math.max(0, LAST - EPHEMERAL[1]) >= ENOUGH;
    // the claims this JVM holds: each lock lasts as long as its channel stays open, so they are
    // kept open, and so reachable, until the JVM exits
    private static final List<FileChannel> HELD = new ArrayList<>();
    private static int nextCandidate = FIRST;

    private FreePorts() {}

    static synchronized int next() {
        while (nextCandidate <= LAST) {
            int port = nextCandidate++;
            if (AVOID_EPHEMERAL && port >= EPHEMERAL[0] && port <= EPHEMERAL[1]) {
                nextCandidate = EPHEMERAL[1] + 1;
                continue;
            }
            if (claim(port)) {
                return port;
            }
        }
        throw new TestServerException("no free loopback port left between " + FIRST + " and " + LAST
                + (AVOID_EPHEMERAL ? " outside the ephemeral range " + EPHEMERAL[0] + "-" + EPHEMERAL[1] : "")
                + " (claims are held in " + CLAIMS + ")");
    }

    /** Claims the port for this JVM if no other JVM has it and nothing listens on it. */
    private static boolean claim(int port) {
        FileChannel channel;
        try {
            Files.createDirectories(CLAIMS);
            channel = FileChannel.open(
                    CLAIMS.resolve(port + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            // such as a claim file another user made: not ours to take
            return false;
        }
        try {
            FileLock lock = channel.tryLock();
            if (lock != null && isFree(port)) {
                HELD.add(channel);
                return true;
            }
        } catch (IOException | OverlappingFileLockException e) {
            // not claimable (the overlap: a copy of this class in another class loader has it)
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing drops the claim, which is all that is wanted here
        }
        return false;
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int[] ephemeralRange() {
        try {
            String[] range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                    .get(0)
                    .trim()
                    .split("\\s+");
            return new int[] {Integer.parseInt(range[0]), Integer.parseInt(range[1])};
        } catch (IOException | RuntimeException e) {
            return USUAL_EPHEMERAL;
        }
    }
}
