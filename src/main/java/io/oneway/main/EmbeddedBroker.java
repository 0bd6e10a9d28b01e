package io.oneway.main;

import java.nio.file.Path;

import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.camel.Service;

/** An ActiveMQ Artemis broker inside the JVM, configured from a broker.xml in {@code artemis-config/}. */
public final class EmbeddedBroker implements Service {

    /** broker.xml reads its journal folder and TCP port from these JVM system properties. */
    static final String DATA_DIR_PROPERTY = "oneway.broker.data-dir";
    static final String PORT_PROPERTY = "oneway.broker.port";
    static final String SECURITY_PROPERTY = "oneway.broker.security-enabled";

    private final String configFile;
    private final Path dataDirectory;
    private final int port;
    private final BrokerUsers users;
    private EmbeddedActiveMQ broker;

    /** A broker without security: in-VM and loopback only, for the all-in-one demo. */
    public EmbeddedBroker(String configFile, Path dataDirectory, int port) {
        this(configFile, dataDirectory, port, null);
    }

    /** @param users users and roles to check every connection and address against; null for none */
    public EmbeddedBroker(String configFile, Path dataDirectory, int port, BrokerUsers users) {
        this.configFile = configFile;
        this.dataDirectory = dataDirectory;
        this.port = port;
        this.users = users;
    }

    @Override
    public synchronized void start() {
        if (broker != null) {
            return;
        }
        System.setProperty(DATA_DIR_PROPERTY, dataDirectory.toAbsolutePath().toString());
        System.setProperty(PORT_PROPERTY, Integer.toString(port));
        System.setProperty(SECURITY_PROPERTY, Boolean.toString(users != null));
        EmbeddedActiveMQ b = new EmbeddedActiveMQ();
        b.setConfigResourcePath(Path.of(configFile).toAbsolutePath().toUri().toString());
        if (users != null) {
            b.setSecurityManager(users.securityManager());
        }
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
