package io.oneway.main;

import java.nio.file.Path;

import org.apache.camel.CamelContext;
import org.apache.camel.Service;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.MainListenerSupport;
import org.apache.camel.spi.PropertiesComponent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.ops.SchemaInstaller;
import io.oneway.ops.SchemaInstaller.Part;

/**
 * The all-in-one default: before the routes are configured, starts the embedded Artemis broker
 * and the embedded remote and central PostgreSQL servers, installs Oneway's SQL and the demo
 * schema with capture on, and prints where everything is once Camel has started. The broker
 * can also run embedded on its own, next to external databases.
 */
final class EmbeddedDefault extends MainListenerSupport {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDefault.class);

    @Override
    public void beforeConfigure(BaseMainSupport main) {
        CamelContext context = main.getCamelContext();
        PropertiesComponent properties = context.getPropertiesComponent();
        boolean databases = Boolean.parseBoolean(property(properties, "oneway.embedded.enabled"));
        boolean broker = Boolean.parseBoolean(property(properties, "oneway.embedded.broker"));
        Path dataDir = Path.of(property(properties, "oneway.embedded.data-dir"));
        StopAtExit atExit = new StopAtExit(context);
        if (broker) {
            BrokerUsers users = Boolean.parseBoolean(property(properties, "oneway.embedded.broker-security"))
                    ? BrokerUsers.load(Path.of(property(properties, "oneway.embedded.broker-users")),
                            Path.of(property(properties, "oneway.embedded.broker-roles")))
                    : null;
            start(context, atExit, new EmbeddedBroker(property(properties, "oneway.embedded.broker-config"), dataDir.resolve("broker"),
                    Integer.parseInt(property(properties, "oneway.embedded.broker-port")), users));
        }
        if (!databases) {
            return;
        }
        LOG.info("Starting the all-in-one default: embedded remote and central PostgreSQL under {}", dataDir);
        EmbeddedPostgresServer remote = new EmbeddedPostgresServer("remote",
                Integer.parseInt(property(properties, "oneway.embedded.remote-port")), dataDir.resolve("remote-pg"));
        EmbeddedPostgresServer central = new EmbeddedPostgresServer("central",
                Integer.parseInt(property(properties, "oneway.embedded.central-port")), dataDir.resolve("central-pg"));
        start(context, atExit, remote);
        start(context, atExit, central);
        SchemaInstaller.install(remote.adminDataSource(), Part.REMOTE);
        SchemaInstaller.install(remote.adminDataSource(), Part.DEMO_SCHEMA);
        SchemaInstaller.install(remote.adminDataSource(), Part.DEMO_CAPTURE);
        SchemaInstaller.install(central.adminDataSource(), Part.CENTRAL);
        SchemaInstaller.install(central.adminDataSource(), Part.DEMO_SCHEMA);
        SchemaInstaller.install(central.adminDataSource(), Part.DEMO_APPLY);
        try {
            context.addStartupListener((ctx, alreadyStarted) -> LOG.info(StartupBanner.text(remote, central, properties)));
        } catch (Exception e) {
            throw new IllegalStateException("cannot register the start-up banner", e);
        }
    }

    /** Starts a server now and lets the context stop it after the routes, in reverse order (or the JVM's exit, if sooner). */
    private static void start(CamelContext context, StopAtExit atExit, Service service) {
        atExit.add(service);
        service.start();
        addService(context, service);
    }

    private static void addService(CamelContext context, Service service) {
        try {
            context.addService(service, true, false);
        } catch (Exception e) {
            throw new IllegalStateException("cannot register " + service + " with Camel", e);
        }
    }

    private static String property(PropertiesComponent properties, String key) {
        return properties.resolveProperty(key)
                .orElseThrow(() -> new IllegalStateException("setting " + key + " is missing from application.properties"));
    }
}
