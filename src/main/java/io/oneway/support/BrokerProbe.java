package io.oneway.support;

import java.util.Optional;

import jakarta.jms.JMSException;

/**
 * Whether the broker can be reached now: a connection opened and closed, with this side's own
 * login, through a connection factory of its own that gives up at once when the broker refuses,
 * within two seconds when it does not answer (the replicator's own factory keeps reconnecting, and
 * would make a probe wait for it).
 */
public final class BrokerProbe implements AutoCloseable {

    private static final String FAIL_FAST = "initialConnectAttempts=1&reconnectAttempts=0&retryInterval=100&callTimeout=2000"
            + "&callFailoverTimeout=2000&connectTimeoutMillis=2000";
    private final BrokerConnectionFactory factory;
    private final boolean check;

    /**
     * @param url oneway.broker.url; user and password as the replicator logs in
     * @param check false when the transport uses no broker (oneway.broker.check)
     */
    public BrokerProbe(String url, String user, String password, boolean check) {
        this.factory = new BrokerConnectionFactory(url + (url.contains("?") ? "&" : "?") + FAIL_FAST, user, password);
        this.check = check;
    }

    /** @return why the broker cannot be reached, or empty (also when it is not checked) */
    public Optional<String> problem() {
        if (!check) {
            return Optional.empty();
        }
        try {
            factory.createConnection().close();
            return Optional.empty();
        } catch (JMSException | RuntimeException e) {
            String m = String.valueOf(e.getMessage());
            int nl = m.indexOf('\n');
            return Optional.of("the broker cannot be reached: " + (nl < 0 ? m : m.substring(0, nl)));
        }
    }

    @Override
    public void close() {
        factory.close();
    }
}
