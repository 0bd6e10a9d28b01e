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

    /** Where the ephemeral range starts: Linux says in /proc; elsewhere (macOS) the IANA start applies. */
    static int ephemeralLow() {
        if (!Files.exists(EPHEMERAL_RANGE)) {
            return IANA_EPHEMERAL_LOW;
        }
        String range = "";
        try {
            // Files.readString trusts the size /proc reports and returned the first byte only ("3"): the
            // range then fell back to 49152 and test ports were drawn inside the ephemeral range
            range = String.join(" ", Files.readAllLines(EPHEMERAL_RANGE)).trim();
            int low = Integer.parseInt(range.split("\\s+")[0]);
            if (low <= LOWEST + 1000) {
                throw new IllegalStateException("the ephemeral port range starts at " + low + ", too low to draw test ports below it from " + LOWEST);
            }
            return low;
        } catch (IOException | NumberFormatException e) {
            // widening the range silently would let a client's local port take a test server's port
            throw new IllegalStateException("the ephemeral port range cannot be read from " + EPHEMERAL_RANGE + " ('" + range + "'): " + e, e);
        }
    }
}
