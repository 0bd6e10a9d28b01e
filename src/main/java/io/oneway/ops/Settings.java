package io.oneway.ops;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.postgresql.ds.PGSimpleDataSource;

import io.oneway.support.PropertiesFile;

/**
 * The settings an operator command reads: the same {@code application.properties} (and profile
 * file) the replicator runs with, {@code {{placeholders}}} resolved, JVM system properties first.
 */
public final class Settings {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([^}]+)}}");
    private final Properties properties = new Properties();
    private String profile;

    private Settings() {
    }

    public static Settings load(Path directory, String profile) {
        Settings s = new Settings();
        s.profile = profile;
        s.read(directory.resolve("application.properties"));
        if (profile != null) {
            s.read(directory.resolve("application-" + profile + ".properties"));
        }
        s.properties.putAll(System.getProperties());
        return s;
    }

    /** These settings with some replaced (for embedding the commands, and for tests). */
    public Settings with(java.util.Map<String, String> overrides) {
        Settings s = new Settings();
        s.profile = profile;
        s.properties.putAll(properties);
        s.properties.putAll(overrides);
        return s;
    }

    /** Environment variables override the files as in Camel: ONEWAY_REMOTE_PASSWORD for oneway.remote.password. */
    public String get(String key) {
        String raw = System.getenv(key.toUpperCase().replace('.', '_').replace('-', '_'));
        if (raw == null) {
            raw = properties.getProperty(key);
        }
        if (raw == null) {
            throw new IllegalArgumentException("setting " + key + " is missing from application.properties");
        }
        return resolve(raw, 0);
    }

    /** A whole-number setting. */
    public int number(String key) {
        String value = get(key);
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("setting " + key + " = " + value + " is not a whole number");
        }
    }

    /** The sides this host runs: the profile's, or both for the all-in-one default. */
    public List<String> sides() {
        return profile == null ? List.of("remote", "central") : List.of(profile);
    }

    /** The side's database as the replicator's own user. */
    public DataSource dataSource(String side) {
        return dataSource(side, get("oneway." + side + ".user"), get("oneway." + side + ".password"));
    }

    /** The side's database as the user that installs Oneway's SQL (oneway.install.user). */
    public DataSource installDataSource(String side) {
        return dataSource(side, get("oneway.install.user"), get("oneway.install.password"));
    }

    private DataSource dataSource(String side, String user, String password) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl(get("oneway." + side + ".jdbc-url"));
        ds.setUser(user);
        if (!password.isEmpty()) {
            ds.setPassword(password);
        }
        // a command answers within seconds, also when a database is out of reach
        ds.setConnectTimeout(5);
        ds.setLoginTimeout(5);
        return ds;
    }

    private String resolve(String value, int depth) {
        if (depth > 10) {
            throw new IllegalArgumentException("placeholders nest too deep in " + value);
        }
        Matcher m = PLACEHOLDER.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(resolve(get(m.group(1)), depth + 1)));
        }
        m.appendTail(out);
        return out.toString();
    }

    private void read(Path file) {
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("no " + file + " here: run the command from the Oneway folder");
        }
        // a profile file overrides the base file
        properties.putAll(PropertiesFile.read(file));
    }
}
