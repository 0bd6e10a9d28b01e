package io.oneway.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loads the text of a {@code .sql} file from the {@code sql/} folder on the class path, once:
 * the routes and beans ask for their statements on every exchange, and reading them from the
 * distribution's jar each time was 2-4 % of each replicator's CPU.
 */
public final class SqlScript {

    private static final Map<String, String> LOADED = new ConcurrentHashMap<>();

    private SqlScript() {
    }

    /** @param path relative to {@code sql/}, e.g. {@code remote/01-schema.sql} */
    public static String load(String path) {
        return LOADED.computeIfAbsent(path, SqlScript::read);
    }

    private static String read(String path) {
        String resource = "sql/" + path;
        try (InputStream in = SqlScript.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("SQL file " + resource + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read SQL file " + resource, e);
        }
    }
}
