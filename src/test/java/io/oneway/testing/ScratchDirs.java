package io.oneway.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Scratch folders of the tests: broker journals, spools, data folders of up to a few hundred MB
 * each. They are deleted when the test JVM exits, after its brokers and replicators are stopped,
 * so that running the suite again and again does not fill the disk (a folder a test left to look
 * at after a failure is in the test's report, not here).
 */
public final class ScratchDirs {

    private static final List<Path> CREATED = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> CREATED.forEach(ScratchDirs::delete), "delete-scratch-dirs"));
    }

    private ScratchDirs() {
    }

    /** A new empty folder under the system's temporary folder, named prefix and a number. */
    public static Path create(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        CREATED.add(dir);
        return dir;
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            System.err.println("could not delete the scratch folder " + dir + ": " + e);
        }
    }
}
