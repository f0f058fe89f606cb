package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Test JVMs run side by side (a parallel reactor build, forked Surefire JVMs), each starting
 * servers on ports it chose itself: a port one JVM handed out must not be handed out by another,
 * nor be taken by any process's outgoing connection before its server binds it.
 */
class FreePortsTest {

    private static final int PORTS = 20;

    /** The child JVM: takes ports, reports them, and keeps them until the test ends it. */
    public static void main(String[] args) throws IOException {
        List<String> ports = new ArrayList<>();
        for (int i = 0; i < PORTS; i++) {
            ports.add(Integer.toString(FreePorts.next()));
        }
        System.out.println("PORTS " + String.join(" ", ports));
        System.out.flush();
        System.in.read(); // until the test closes the pipe
    }

    @Test
    void portsLieBelowTheKernelsEphemeralRange() throws IOException {
        // the kernel picks ports for binds to port 0 and for outgoing connections from this range
        String[] range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                .get(0)
                .trim()
                .split("\\s+");
        int low = Integer.parseInt(range[0]);
        int high = Integer.parseInt(range[1]);
        // a kernel that hands out nearly every port leaves no room outside: then any port from 20000 up
        boolean room = Math.max(0, low - 20_000) + Math.max(0, 65_535 - high) >= 1_000;
        for (int i = 0; i < PORTS; i++) {
            int port = FreePorts.next();
            if (room) {
                assertThat(port < low || port > high)
                        .as("port %d for a test server must lie outside the ephemeral range %d-%d", port, low, high)
                        .isTrue();
            } else {
                assertThat(port)
                        .as("a test server's port, the ephemeral range %d-%d leaving no room", low, high)
                        .isBetween(20_000, 65_535);
            }
        }
    }

    @Test
    void aPortAnotherJvmHandedOutIsNotHandedOutHere() throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", classPath, FreePortsTest.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            List<Integer> theirs = awaitReport(child);
            List<Integer> ours = new ArrayList<>();
            for (int i = 0; i < PORTS; i++) {
                ours.add(FreePorts.next());
            }
            assertThat(ours)
                    .as("ports handed out here while another JVM holds %s", theirs)
                    .doesNotContainAnyElementsOf(theirs)
                    .doesNotHaveDuplicates();
        } finally {
            child.getOutputStream().close();
            child.destroyForcibly();
        }
    }

    private static List<Integer> awaitReport(Process child) throws IOException, InterruptedException {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("PORTS ")) {
                return Arrays.stream(line.substring("PORTS ".length()).split(" "))
                        .map(Integer::valueOf)
                        .collect(Collectors.toList());
            }
        }
        throw new AssertionError("the child JVM exited before reporting its ports (exit " + child.waitFor() + ")");
    }
}
