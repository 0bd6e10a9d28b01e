package io.oneway.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.oneway.testing.Distribution;
import io.oneway.testing.Ports;
import io.oneway.testing.ScratchDirs;

/**
 * A start-up that fails stops everything it started and exits with status 1 and one line
 * saying what to fix; it never stays half-alive.
 */
class StartFailureIT {

    @Test
    void an_endpoint_of_a_component_not_on_the_class_path_stops_the_all_in_one_run_and_its_embedded_servers() throws Exception {
        int remotePort = Ports.free();
        int centralPort = Ports.free();
        Properties p = new Properties();
        p.setProperty("oneway.send.endpoint", "nosuch:queue:changes");
        p.setProperty("oneway.embedded.data-dir", ScratchDirs.create("oneway-start-failure").toString());
        p.setProperty("oneway.embedded.remote-port", Integer.toString(remotePort));
        p.setProperty("oneway.embedded.central-port", Integer.toString(centralPort));
        p.setProperty("oneway.embedded.broker-port", Integer.toString(Ports.free()));
        p.setProperty("camel.management.port", Integer.toString(Ports.free()));
        Ended run = run(null, p);
        assertEquals(1, run.exit(), run.output());
        assertTrue(run.output().contains("Oneway did not start: No endpoint could be found for: nosuch://queue:changes"), run.output());
        assertTrue(run.output().contains("README \"Transports\""), run.output());
        assertFalse(run.output().contains("\tat "), "one line, no stack trace:\n" + run.output());
        assertFalse(listening(remotePort), "the embedded remote database still runs");
        assertFalse(listening(centralPort), "the embedded central database still runs");
    }

    @Test
    void a_setting_that_is_not_a_number_stops_a_role_with_one_line_naming_it() throws Exception {
        Properties p = new Properties();
        p.setProperty("oneway.send.window", "lots");
        // an earlier version's setting, which this one would otherwise ignore without a word
        p.setProperty("oneway.wire.deflate", "false");
        Ended run = run("remote", nowhere(p));
        assertEquals(1, run.exit(), run.output());
        assertTrue(run.output().contains("Oneway did not start: settings not valid: oneway.send.window = 'lots' is not a whole number"), run.output());
        assertTrue(run.output().contains("oneway.wire.deflate = 'false' is no longer read: replaced by oneway.wire.compression"), run.output());
        assertFalse(run.output().contains("\tat "), "one line, no stack trace:\n" + run.output());
    }

    @Test
    void a_compression_that_is_not_known_stops_a_role_with_one_line_naming_the_choices() throws Exception {
        refusedInOneLine("oneway.wire.compression", "zip", "oneway.wire.compression = 'zip' is not one of [lz4, deflate, none]");
    }

    @Test
    void a_key_refused_is_named_with_its_reason_and_never_written_to_the_log() throws Exception {
        String output = refusedInOneLine("oneway.keys", "branch1=TEST-SECRET;branch2=TEST-ONLY-long-enough-key",
                "Oneway did not start: the setting camel.beans.messageSigner.keys was refused: "
                        + "the HMAC key of source 'branch1' must have at least 16 characters");
        assertFalse(output.contains("TEST-SECRET") || output.contains("TEST-ONLY-long-enough-key"), "no key in the log:\n" + output);
    }

    /** A remote started with this setting exits with status 1 and the line expected, without a stack trace; returns its output. */
    private static String refusedInOneLine(String setting, String value, String expected) throws Exception {
        Properties p = new Properties();
        p.setProperty(setting, value);
        Ended run = run("remote", nowhere(p));
        assertEquals(1, run.exit(), run.output());
        assertTrue(run.output().contains(expected), run.output());
        assertFalse(run.output().contains("\tat "), "one line, no stack trace:\n" + run.output());
        return run.output();
    }

    @Test
    void a_management_port_held_by_another_process_stops_the_start_with_one_line_naming_it() throws Exception {
        int port = Ports.free();
        try (ServerSocket held = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            Properties p = new Properties();
            p.setProperty("oneway.remote.jdbc-url", "jdbc:postgresql://127.0.0.1:" + Ports.free() + "/none");
            p.setProperty("oneway.broker.url", "tcp://127.0.0.1:" + Ports.free());
            p.setProperty("camel.management.port", Integer.toString(port));
            Ended run = run("remote", p);
            assertEquals(1, run.exit(), run.output());
            assertTrue(run.output().contains("Oneway did not start: the management port 127.0.0.1:" + port + " (camel.management.port) cannot be had"),
                    run.output());
            assertFalse(run.output().contains("\tat "), "one line, no stack trace:\n" + run.output());
        }
    }

    private record Ended(int exit, String output) {
    }

    /** The settings, with a remote database, a broker and a management port that nothing listens on. */
    private static Properties nowhere(Properties settings) {
        settings.setProperty("oneway.remote.jdbc-url", "jdbc:postgresql://127.0.0.1:" + Ports.free() + "/none");
        settings.setProperty("oneway.broker.url", "tcp://127.0.0.1:" + Ports.free());
        settings.setProperty("camel.management.port", Integer.toString(Ports.free()));
        return settings;
    }

    private static Ended run(String profile, Properties settings) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path")));
        command.addAll(Distribution.asOptions(settings));
        command.add("io.oneway.main.OnewayMain");
        if (profile != null) {
            command.add("-profile");
            command.add(profile);
        }
        Path log = Files.createTempFile("oneway-start-failure", ".log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(ended, "still running 120 s after a failed start:\n" + output);
        return new Ended(p.exitValue(), output);
    }

    private static boolean listening(int port) {
        try {
            new Socket(InetAddress.getLoopbackAddress(), port).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
