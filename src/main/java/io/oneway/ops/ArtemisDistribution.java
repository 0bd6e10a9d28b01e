package io.oneway.ops;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The Apache Artemis distribution that broker instances are made with: ARTEMIS_HOME when set,
 * else the version Oneway's client is built against, unpacked once under ~/.cache/oneway from
 * the local Maven repository or, failing that, downloaded from Maven Central.
 */
final class ArtemisDistribution {

    private static final String CENTRAL = "https://repo1.maven.org/maven2/";

    private ArtemisDistribution() {
    }

    static Path locate(String explicitHome) {
        String home = explicitHome != null ? explicitHome : System.getenv("ARTEMIS_HOME");
        if (home != null && !home.isBlank()) {
            Path p = Path.of(home);
            if (!Files.isRegularFile(p.resolve("bin/artemis"))) {
                throw new IllegalStateException(p + " is not an Artemis distribution (no bin/artemis)");
            }
            return p;
        }
        String version = version();
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "oneway");
        Path unpacked = cache.resolve("apache-artemis-" + version);
        if (Files.isRegularFile(unpacked.resolve("bin/artemis"))) {
            return unpacked;
        }
        String artifact = "org/apache/activemq/apache-artemis/" + version + "/apache-artemis-" + version + "-bin.zip";
        Path zip = Path.of(System.getProperty("user.home"), ".m2", "repository").resolve(artifact);
        if (!Files.isRegularFile(zip)) {
            zip = download(CENTRAL + artifact, cache.resolve("apache-artemis-" + version + "-bin.zip"));
        }
        unzip(zip, unpacked);
        return unpacked;
    }

    private static String version() {
        Properties p = new Properties();
        try (InputStream in = ArtemisDistribution.class.getResourceAsStream("/oneway-build.properties")) {
            if (in == null) {
                throw new IllegalStateException("oneway-build.properties is missing from the class path: a broken build");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("artemis.version");
    }

    private static Path download(String url, Path target) {
        System.out.println("downloading " + url);
        try {
            Files.createDirectories(target.getParent());
            Path partial = target.resolveSibling(target.getFileName() + ".part");
            HttpResponse<Path> response = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                    .connectTimeout(Duration.ofSeconds(20)).build()
                    .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofFile(partial));
            if (response.statusCode() != 200) {
                throw new IllegalStateException("downloading " + url + " answered HTTP " + response.statusCode()
                        + "; download it yourself, unzip it and set ARTEMIS_HOME");
            }
            return Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IllegalStateException("cannot download " + url + " (" + e.getMessage()
                    + "); download it yourself, unzip it and set ARTEMIS_HOME", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while downloading " + url, e);
        }
    }

    /** Unpacks into a temporary folder first, so that an interrupted unpack is never taken for a distribution. */
    private static void unzip(Path zip, Path unpacked) {
        Path into = unpacked.getParent();
        try {
            Files.createDirectories(into);
            Path temporary = Files.createTempDirectory(into, "unpacking-");
            try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
                for (ZipEntry entry; (entry = in.getNextEntry()) != null;) {
                    Path out = temporary.resolve(entry.getName()).normalize();
                    if (!out.startsWith(temporary)) {
                        throw new IllegalStateException(zip + " holds an entry outside its folder: " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(out);
                    } else {
                        Files.createDirectories(out.getParent());
                        Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            Path dist = temporary.resolve(unpacked.getFileName());
            if (!Files.isRegularFile(dist.resolve("bin/artemis"))) {
                throw new IllegalStateException(zip + " does not hold " + unpacked.getFileName() + "/bin/artemis");
            }
            try (Stream<Path> bin = Files.list(dist.resolve("bin"))) {
                bin.forEach(f -> f.toFile().setExecutable(true));
            }
            Files.move(dist, unpacked, StandardCopyOption.ATOMIC_MOVE);
            try (Stream<Path> rest = Files.walk(temporary)) {
                rest.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + zip + " into " + into, e);
        }
    }
}
