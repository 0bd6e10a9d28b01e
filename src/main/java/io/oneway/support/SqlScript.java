package io.oneway.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Loads the text of a {@code .sql} file from the {@code sql/} folder on the class path. */
public final class SqlScript {

    private SqlScript() {
    }

    /** @param path relative to {@code sql/}, e.g. {@code remote/01-schema.sql} */
    public static String load(String path) {
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
