package io.oneway.main;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.MainListenerSupport;
import org.apache.camel.spi.PropertiesComponent;

/**
 * Checks, before anything starts, that the management port can be had. Camel's HTTP server only
 * logs that its port is in use and the replicator runs on without health, metrics, Jolokia and
 * Hawtio: nothing would tell that it is stuck.
 */
final class ManagementPortCheck extends MainListenerSupport {

    @Override
    public void beforeConfigure(BaseMainSupport main) {
        PropertiesComponent settings = main.getCamelContext().getPropertiesComponent();
        if (!"true".equals(settings.resolveProperty("camel.management.enabled").orElse("false").trim())) {
            return;
        }
        String host = settings.resolveProperty("camel.management.host").orElse("0.0.0.0").trim();
        int port = Integer.parseInt(settings.resolveProperty("camel.management.port").orElse("9876").trim());
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new IllegalStateException("the management port " + host + ":" + port + " (camel.management.port) cannot be had: " + e.getMessage()
                    + "; health, metrics, Jolokia and Hawtio are served there: stop what holds it or choose another port", e);
        }
    }
}
