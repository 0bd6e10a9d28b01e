package io.oneway.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for the servers a test starts. They are taken below the system's ephemeral
 * range: a port the system handed out for listening (port 0) comes from that range, and between
 * the test choosing it and its server binding it, seconds later, an outgoing connection (a JDBC
 * or broker client) could be given the same port as its local end; the server's bind then failed
 * with "Address already in use" (seen once in a clean-clone CI run: the all-in-one replicator's
 * management port). No port is handed out twice in a test JVM.
 */
public final class Ports {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Where the ephemeral range starts when the system does not say (IANA's dynamic ports). */
    private static final int IANA_EPHEMERAL_LOW = 49152;
    private static final int LOWEST = 15000;
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private Ports() {
    }

    /** A port free at the moment of asking, outside the ephemeral range, not handed out before in this JVM. */
    public static int free() {
        int high = ephemeralLow();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, high);
            if (GIVEN.add(port) && bindable(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port found between " + LOWEST + " and " + high);
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int ephemeralLow() {
        try {
            int low = Integer.parseInt(Files.readString(EPHEMERAL_RANGE).trim().split("\\s+")[0]);
            return low > LOWEST + 1000 ? low : IANA_EPHEMERAL_LOW;
        } catch (IOException | RuntimeException e) {
            return IANA_EPHEMERAL_LOW;
        }
    }
}
