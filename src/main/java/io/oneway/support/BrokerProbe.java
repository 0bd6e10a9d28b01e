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
    private final BrokerConnectionFactory login;
    private final boolean check;

    /**
     * @param url oneway.broker.url
     * @param login the replicator's own factory, whose user and password the probe logs in with (read at each probe: they
     *              are set on it after it is made)
     * @param check false when the transport uses no broker (oneway.broker.check)
     */
    public BrokerProbe(String url, BrokerConnectionFactory login, boolean check) {
        this.factory = new BrokerConnectionFactory(url + (url.contains("?") ? "&" : "?") + FAIL_FAST);
        this.login = login;
        this.check = check;
    }

    /** @return why the broker cannot be reached, or empty (also when it is not checked) */
    public Optional<String> problem() {
        if (!check) {
            return Optional.empty();
        }
        try {
            factory.createConnection(login.getUser(), login.getPassword()).close();
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
