package io.oneway.main;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.MainListenerSupport;
import org.apache.camel.spi.PropertiesComponent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The management server's address (health, metrics, Jolokia, Hawtio), checked before anything
 * starts and told once started. Camel's HTTP server only logs that its port is in use and the
 * replicator runs on without them: nothing would tell that it is stuck. Camel's own summary prints
 * http://0.0.0.0:PORT whatever camel.management.host is, which reads as "open to every network" on
 * a server bound to 127.0.0.1; that summary is off in the log levels, this says where it listens.
 */
final class ManagementAddress extends MainListenerSupport {

    private static final Logger LOG = LoggerFactory.getLogger(ManagementAddress.class);

    @Override
    public void beforeConfigure(BaseMainSupport main) {
        PropertiesComponent settings = enabledSettings(main);
        if (settings == null) {
            return;
        }
        String host = host(settings);
        int port = Integer.parseInt(port(settings));
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new IllegalStateException("the management port " + host + ":" + port + " (camel.management.port) cannot be had: " + e.getMessage()
                    + "; health, metrics, Jolokia and Hawtio are served there: stop what holds it or choose another port", e);
        }
    }

    @Override
    public void afterStart(BaseMainSupport main) {
        PropertiesComponent settings = enabledSettings(main);
        if (settings == null) {
            return;
        }
        String host = host(settings);
        String base = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port(settings) + "/observe/";
        LOG.info("Health, metrics and Jolokia: {}health, {}metrics, {}jolokia", base, base, base);
    }

    /** The settings, or null when the management server is off. */
    private static PropertiesComponent enabledSettings(BaseMainSupport main) {
        PropertiesComponent settings = main.getCamelContext().getPropertiesComponent();
        return "true".equals(settings.resolveProperty("camel.management.enabled").orElse("false").trim()) ? settings : null;
    }

    private static String host(PropertiesComponent settings) {
        return settings.resolveProperty("camel.management.host").orElse("0.0.0.0").trim();
    }

    private static String port(PropertiesComponent settings) {
        return settings.resolveProperty("camel.management.port").orElse("9876").trim();
    }
}
