package io.oneway.testing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A standalone Artemis broker as an operator runs it: an instance made by the distribution's
 * {@code bin/oneway create-broker}, run with the instance's {@code bin/artemis run} in an OS
 * process of its own, killed with SIGKILL or stopped with SIGTERM.
 */
public final class ArtemisProcess implements AutoCloseable {

    public static final String ADMIN_PASSWORD = "test-admin-password";
    private final Path instance;
    private final int port;
    private Process process;

    private ArtemisProcess(Path instance, int port) {
        this.instance = instance;
        this.port = port;
    }

    /**
     * Makes the instance: {@code forwards} are {@code QUEUE=tcp://host:port} bridged to another
     * broker, logged in there as {@code bridgeUser} (the project's demo users and passwords).
     */
    public static ArtemisProcess create(Distribution distribution, Path instance, int port, String bridgeUser, String... forwards) {
        List<String> args = new ArrayList<>(List.of("create-broker", instance.toString(), "--port", Integer.toString(port),
                "--console-port", "0", "--memory", "256M"));
        for (String f : forwards) {
            args.add("--forward");
            args.add(f);
        }
        if (forwards.length > 0) {
            args.add("--bridge-user");
            args.add(bridgeUser);
        }
        Distribution.Result r = distribution.command(List.of("ARTEMIS_ADMIN_PASSWORD=" + ADMIN_PASSWORD,
                "ONEWAY_BRIDGE_PASSWORD=DEMO-ONLY-" + bridgeUser + "-broker-password"), List.of(), args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.output());
        return new ArtemisProcess(instance, port);
    }

    public int port() {
        return port;
    }

    /** Starts it and returns once it accepts connections. */
    public ArtemisProcess start() {
        ProcessBuilder pb = new ProcessBuilder(instance.resolve("bin/artemis").toString(), "run").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(instance.resolve("run.log").toFile()));
        pb.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("broker " + instance + " exited with " + process.exitValue() + "; see run.log there");
            }
            try {
                new Socket(InetAddress.getLoopbackAddress(), port).close();
                return true;
            } catch (IOException e) {
                return false;
            }
        });
        return this;
    }

    /** SIGKILL, as a crash. */
    public void kill() {
        process.destroyForcibly();
        await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive());
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
