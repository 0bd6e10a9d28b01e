package io.oneway.main;

import java.nio.file.Path;

import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.camel.Service;

/** An ActiveMQ Artemis broker inside the JVM, configured from a broker.xml in {@code artemis-config/}. */
public final class EmbeddedBroker implements Service {

    /** broker.xml reads its journal folder and TCP port from these JVM system properties. */
    static final String DATA_DIR_PROPERTY = "oneway.broker.data-dir";
    static final String PORT_PROPERTY = "oneway.broker.port";

    private final String configFile;
    private final Path dataDirectory;
    private final int port;
    private EmbeddedActiveMQ broker;

    public EmbeddedBroker(String configFile, Path dataDirectory, int port) {
        this.configFile = configFile;
        this.dataDirectory = dataDirectory;
        this.port = port;
    }

    @Override
    public synchronized void start() {
        if (broker != null) {
            return;
        }
        System.setProperty(DATA_DIR_PROPERTY, dataDirectory.toAbsolutePath().toString());
        System.setProperty(PORT_PROPERTY, Integer.toString(port));
        EmbeddedActiveMQ b = new EmbeddedActiveMQ();
        b.setConfigResourcePath(Path.of(configFile).toAbsolutePath().toUri().toString());
        try {
            b.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the embedded Artemis broker from " + configFile + ": " + e.getMessage(), e);
        }
        broker = b;
    }

    @Override
    public synchronized void stop() {
        if (broker == null) {
            return;
        }
        try {
            broker.stop();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the embedded Artemis broker: " + e.getMessage(), e);
        } finally {
            broker = null;
        }
    }
}
