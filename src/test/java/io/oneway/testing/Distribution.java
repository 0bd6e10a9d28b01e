package io.oneway.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The distribution that {@code mvn package} made (target/oneway-VERSION), run as an operator
 * runs it: {@code bin/oneway COMMAND} with settings as {@code -D} options in JAVA_OPTS.
 */
public final class Distribution {

    private final Path home;

    private Distribution(Path home) {
        this.home = home;
    }

    /** The one the build made; Failsafe names it in the system property oneway.distribution. */
    public static Distribution built() {
        String home = System.getProperty("oneway.distribution");
        if (home == null || !Files.isExecutable(Path.of(home, "bin/oneway"))) {
            throw new IllegalStateException("no distribution at " + home + ": run the tests with mvn verify, which packages it first");
        }
        return new Distribution(Path.of(home));
    }

    public Path home() {
        return home;
    }

    /** What a command printed (stdout and stderr together) and its exit status. */
    public record Result(int exit, String output, long millis) {
    }

    /** Runs {@code bin/oneway ARGS} to its end; {@code environment} as NAME=VALUE, {@code settings} as -Dkey=value. */
    public Result command(List<String> environment, List<String> settings, String... args) {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/oneway").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("ARTEMIS_HOME", System.getProperty("artemis.home"));
        pb.environment().put("JAVA_OPTS", String.join(" ", settings));
        for (String e : environment) {
            int eq = e.indexOf('=');
            pb.environment().put(e.substring(0, eq), e.substring(eq + 1));
        }
        long started = System.nanoTime();
        try {
            Process p = pb.start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("bin/oneway " + String.join(" ", args) + " did not end within 5 minutes:\n" + output);
            }
            return new Result(p.exitValue(), output, (System.nanoTime() - started) / 1_000_000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Settings as the -D options of JAVA_OPTS (values without spaces). */
    public static List<String> asOptions(Properties settings) {
        return settings.stringPropertyNames().stream().sorted().map(k -> "-D" + k + "=" + settings.getProperty(k)).toList();
    }
}
