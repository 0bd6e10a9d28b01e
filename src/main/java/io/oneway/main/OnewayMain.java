package io.oneway.main;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.apache.camel.main.Main;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts Oneway on Camel Main with the top-level {@code application.properties} and the
 * profile (role) named on the command line: none for the all-in-one demo, {@code remote}
 * or {@code central} for one half.
 */
public final class OnewayMain {

    private static final Logger LOG = LoggerFactory.getLogger(OnewayMain.class);

    private OnewayMain() {
    }

    /**
     * Exit status: 0 stopped as asked (143 when stopped by SIGTERM, 130 by Ctrl-C: the JVM's own),
     * 1 it could not start (settings, routes; the log says why), 3 out of memory (heap too small).
     * Exiting also ends whatever a failed start left running, so a service manager sees the failure.
     */
    public static void main(String... args) throws Exception {
        Main main = create(profile(args), new Properties());
        StartWatch started = new StartWatch();
        main.addMainListener(started);
        int code;
        try {
            code = main.run(args);
        } catch (Exception | LinkageError e) {
            // one line to act on; the trace only at debug level, so that the cause is not buried
            LOG.error(StartFailure.describe(e));
            LOG.debug("start-up failure", e);
            code = 1;
        }
        // exiting also stops what a failed start left running (the embedded servers' exit hook)
        System.exit(started.started() ? code : 1);
    }

    /**
     * A configured but not started Main; {@code overrides} beat every properties file
     * (tests use them to point at their own databases and ports).
     */
    public static Main create(String profile, Properties overrides) {
        Main main = new Main();
        main.setDefaultPropertyPlaceholderLocation(propertyLocations(profile));
        main.setOverrideProperties(overrides);
        main.addMainListener(new SettingsCheck(Path.of("application.properties")));
        main.addMainListener(new ManagementAddress());
        main.addMainListener(new EmbeddedDefault());
        main.addMainListener(new SideServices());
        return main;
    }

    /** The first location wins for a duplicate key, so the profile file comes first. */
    static String propertyLocations(String profile) {
        String base = "file:application.properties";
        return profile == null ? base : "file:application-" + profile + ".properties," + base;
    }

    /** camel:run passes {@code -profile NAME}; -Dcamel.main.profile works as well. */
    static String profile(String... args) {
        List<String> list = Arrays.asList(args);
        int i = list.indexOf("-profile");
        if (i >= 0 && i + 1 < list.size()) {
            return list.get(i + 1);
        }
        String fromProperty = System.getProperty("camel.main.profile", System.getProperty("camel.profile"));
        return fromProperty == null || fromProperty.isBlank() ? null : fromProperty;
    }
}
