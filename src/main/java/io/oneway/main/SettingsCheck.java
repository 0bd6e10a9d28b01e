package io.oneway.main;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.MainListenerSupport;
import org.apache.camel.spi.PropertiesComponent;

import io.oneway.support.PropertiesFile;

/**
 * Checks, before anything starts, that every Oneway setting whose default in
 * application.properties is a number or a truth value is one too: a typo in a setting is told by
 * its name, rather than by a bean that cannot be made; and that no setting an earlier version
 * read is still set, which would be ignored without a word.
 */
final class SettingsCheck extends MainListenerSupport {

    private static final Pattern WHOLE = Pattern.compile("-?\\d+");
    private static final Pattern DECIMAL = Pattern.compile("-?\\d+(\\.\\d+)?");
    private static final Pattern TRUTH = Pattern.compile("true|false");
    /** Settings of earlier versions, and what took their place. */
    private static final Map<String, String> RETIRED = Map.of("oneway.wire.deflate",
            "replaced by oneway.wire.compression (lz4, the default; deflate; or none for plain JSON)");

    private final Path defaults;

    SettingsCheck(Path defaults) {
        this.defaults = defaults;
    }

    @Override
    public void beforeConfigure(BaseMainSupport main) {
        PropertiesComponent actual = main.getCamelContext().getPropertiesComponent();
        Properties base = PropertiesFile.read(defaults);
        List<String> wrong = new ArrayList<>();
        for (String key : base.stringPropertyNames()) {
            String given = base.getProperty(key).trim();
            if (!key.startsWith("oneway.") || given.isEmpty()) {
                continue;
            }
            String value = actual.resolveProperty(key).orElse("").trim();
            if (WHOLE.matcher(given).matches() && !WHOLE.matcher(value).matches()) {
                wrong.add(key + " = '" + value + "' is not a whole number (default " + given + ")");
            } else if (DECIMAL.matcher(given).matches() && !DECIMAL.matcher(value).matches()) {
                wrong.add(key + " = '" + value + "' is not a number (default " + given + ")");
            } else if (TRUTH.matcher(given).matches() && !TRUTH.matcher(value).matches()) {
                wrong.add(key + " = '" + value + "' is neither true nor false (default " + given + ")");
            }
        }
        RETIRED.forEach((key, instead) -> actual.resolveProperty(key)
                .ifPresent(value -> wrong.add(key + " = '" + value.trim() + "' is no longer read: " + instead)));
        if (!wrong.isEmpty()) {
            throw new IllegalArgumentException("settings not valid: " + String.join("; ", wrong));
        }
    }
}
