package io.oneway.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class PortsTest {

    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    @Test
    void test_ports_are_drawn_below_the_systems_ephemeral_range() throws IOException {
        int low = 49152;
        if (Files.exists(RANGE)) {
            try (FileInputStream in = new FileInputStream(RANGE.toFile())) {
                low = Integer.parseInt(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+")[0]);
            }
        }
        assertEquals(low, Ports.ephemeralLow());
        for (int i = 0; i < 100; i++) {
            int port = Ports.free();
            assertTrue(port >= 15000 && port < low, port + " is not below the ephemeral range starting at " + low);
        }
    }
}
