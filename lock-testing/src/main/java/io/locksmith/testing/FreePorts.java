package io.locksmith.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/** Hands out loopback ports that are free now and were not handed out before in this JVM. */
final class FreePorts {

    // a port freed by a killed server may come back from the kernel; never give it to another one
    private static final Set<Integer> GIVEN = new HashSet<>();

    private FreePorts() {
    }

    static synchronized int next() {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (GIVEN.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                throw new TestServerException("could not find a free loopback port: " + e.getMessage(), e);
            }
        }
        throw new TestServerException("could not find a free loopback port in 100 attempts");
    }
}
