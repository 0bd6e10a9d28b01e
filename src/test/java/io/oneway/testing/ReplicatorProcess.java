package io.oneway.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A replicator (io.oneway.main.OnewayMain) in an OS process of its own, with its own heap
 * limit, started with the test's class path and settings as system properties; killed with
 * SIGKILL or stopped with SIGTERM like an operator would. Its output goes to a file under target/.
 */
public final class ReplicatorProcess implements AutoCloseable {

    private final Process process;
    private final int managementPort;
    private final Path log;
    /** Where this process's output begins in its log, which other runs of the same name append to. */
    private final long logStart;
    private final HttpClient http = HttpClient.newHttpClient();
    /** Killed or stopped by the test: its end is no failure. */
    private volatile boolean ended;

    private ReplicatorProcess(Process process, int managementPort, Path log, long logStart) {
        this.process = process;
        this.managementPort = managementPort;
        this.log = log;
        this.logStart = logStart;
    }

    /** Starts a replicator with this profile, heap (e.g. "256m") and settings; returns once its health endpoint answers. */
    public static ReplicatorProcess start(String profile, String heap, Properties settings, String logName) {
        return launch(port -> {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap,
                    "-XX:+UseParallelGC", "-XX:+ExitOnOutOfMemoryError", "-Xlog:gc:file=" + gcLog(logName), "-cp", System.getProperty("java.class.path")));
            command.addAll(Distribution.asOptions(withManagement(settings, port)));
            command.add("io.oneway.main.OnewayMain");
            command.add("-profile");
            command.add(profile);
            return new ProcessBuilder(command);
        }, profile, logName);
    }

    /** Starts a replicator as an operator does: the distribution's {@code bin/oneway run --profile PROFILE}, settings in JAVA_OPTS. */
    public static ReplicatorProcess fromDistribution(Distribution distribution, String profile, String heap, Properties settings, String logName) {
        return launch(port -> {
            ProcessBuilder pb = new ProcessBuilder(distribution.home().resolve("bin/oneway").toString(), "run", "--profile", profile);
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            pb.environment().put("ONEWAY_HEAP", heap);
            pb.environment().put("ONEWAY_LOG_DIR", Path.of("target", logName + "-logs").toAbsolutePath().toString());
            pb.environment().put("JAVA_OPTS", String.join(" ", Distribution.asOptions(withManagement(settings, port))));
            return pb;
        }, profile, logName);
    }

    /** Where a replicator started by {@link #start} logs its collections: how full its heap ran, when it ran out. */
    private static Path gcLog(String logName) {
        return Path.of("target", logName + "-gc.log").toAbsolutePath();
    }

    private static Properties withManagement(Properties settings, int port) {
        Properties all = new Properties();
        all.putAll(settings);
        all.setProperty("camel.management.enabled", "true");
        all.setProperty("camel.management.port", Integer.toString(port));
        all.setProperty("camel.metrics.enabled", "true");
        return all;
    }

    /**
     * Starts the process with a management port from {@link Ports#free()}. Another process can bind
     * that port between its choosing and the replicator's check (seen once in a clean-clone CI run);
     * the replicator then exits saying so, and it is started once more on another port.
     */
    private static ReplicatorProcess launch(IntFunction<ProcessBuilder> command, String profile, String logName) {
        Path log = Path.of("target", logName + ".log");
        for (int attempt = 1;; attempt++) {
            int port = Ports.free();
            long logStart = log.toFile().length();
            try {
                Process p = command.apply(port).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
                ReplicatorProcess r = new ReplicatorProcess(p, port, log, logStart);
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(() -> !p.isAlive() || r.get("/observe/health/live") != null);
                if (p.isAlive()) {
                    return r;
                }
                String output = r.outputSince(logStart);
                boolean portTaken = output.contains("(camel.management.port) cannot be had");
                if (!portTaken || attempt == 3) {
                    throw new IllegalStateException(profile + " replicator (management port " + port + ", ephemeral range from " + Ports.ephemeralLow()
                            + ") exited with " + p.exitValue() + "; the end of " + log + ":\n" + tail(output, 20));
                }
                System.out.printf("%s replicator could not have management port %d (another process took it after it was chosen); starting it again%n", profile, port);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private String outputSince(long offset) throws IOException {
        byte[] all = java.nio.file.Files.readAllBytes(log);
        return new String(all, (int) Math.min(offset, all.length), all.length - (int) Math.min(offset, all.length), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static String tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /** SIGKILL, as a crash. */
    public void kill() {
        ended = true;
        process.destroyForcibly();
        await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive());
    }

    /** The sum of a Prometheus counter or gauge over its series, or 0 when it is not exported. */
    public double metric(String name) {
        return metric(name, "");
    }

    /** The sum of a Prometheus counter or gauge over its series whose labels contain {@code labels} (e.g. state="source-silent"). */
    public double metric(String name, String labels) {
        String text = get("/observe/metrics");
        double sum = 0;
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? ([0-9.eE+-]+)$").matcher(text == null ? "" : text);
        while (m.find()) {
            if (m.group(1) != null && m.group(1).contains(labels) || labels.isEmpty()) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    /** What /observe/metrics answers (empty when it does not answer). */
    public String metrics() {
        String text = get("/observe/metrics");
        return text == null ? "" : text;
    }

    /** What /observe/health answers, UP or DOWN alike (empty when it does not answer). */
    public String health() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + "/observe/health"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Exchanges in flight in this route, as Jolokia reads Camel's route MBean (0 when it does not answer). */
    public int inflight(String routeId) {
        String body = get("/observe/jolokia/read/org.apache.camel:context=*,type=routes,name=%22" + routeId + "%22/ExchangesInflight");
        Matcher m = Pattern.compile("\"ExchangesInflight\"\\s*:\\s*(\\d+)").matcher(body == null ? "" : body);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** The port of its health, metrics and Jolokia endpoints. */
    public int managementPort() {
        return managementPort;
    }

    /** The lines this replicator has logged so far (not those of an earlier process of the same name). */
    public List<String> logLines() {
        try {
            return outputSince(logStart).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many notifications of this event ("stalled", "recovered") and stall state it has logged (oneway.notify.endpoint log:io.oneway.notifications). */
    public long notifications(String event, String state) {
        return logLines().stream().filter(l -> l.contains(" notifications - ") && l.contains("\"event\":\"" + event + "\"")
                && l.contains("\"state\":\"" + state + "\"")).count();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** @throws IllegalStateException when the process ended without the test ending it, with its exit value and the end of its log and of its GC log */
    public void checkAlive() {
        if (ended || process.isAlive()) {
            return;
        }
        List<String> lines = logLines();
        StringBuilder why = new StringBuilder("the replicator process ended with exit value " + process.exitValue()
                + " (3: out of memory); the end of " + log + ":\n");
        lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(l -> why.append("  ").append(l).append('\n'));
        Path gc = gcLog(log.getFileName().toString().replaceFirst("\\.log$", ""));
        if (java.nio.file.Files.exists(gc)) {
            try {
                List<String> collections = java.nio.file.Files.readAllLines(gc);
                why.append("the end of ").append(gc).append(":\n");
                collections.subList(Math.max(0, collections.size() - 5), collections.size()).forEach(l -> why.append("  ").append(l).append('\n'));
            } catch (IOException e) {
                why.append("(").append(gc).append(" cannot be read: ").append(e.getMessage()).append(")\n");
            }
        }
        throw new IllegalStateException(why.toString());
    }

    /** SIGTERM and wait: an orderly stop. */
    @Override
    public void close() {
        ended = true;
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private String get(String path) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

}
