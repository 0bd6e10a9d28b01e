package io.oneway.support;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The replicator's connections to the broker: {@code oneway.broker.url} with Oneway's defaults
 * for what the URL leaves out, so that a plain {@code tcp://host:61616} works as well as the
 * embedded default; a blank user or password means none. The login is set as properties
 * ({@code .user}, {@code .password}), not constructor arguments: Camel cannot pass a value that
 * reads as a number, a boolean or null, or holds a quote, to a constructor's String parameter,
 * and a password is any text.
 */
public class BrokerConnectionFactory extends ActiveMQConnectionFactory {

    private static final long serialVersionUID = 1L;

    /** Bytes from which a message travels as a large message; a broker's bridges send with the same. */
    public static final int MIN_LARGE_MESSAGE_SIZE = 4 * 1024 * 1024;

    /**
     * cacheDestinations saves an address lookup per send; minLargeMessageSize keeps frames (at
     * most oneway.send.frame-bytes of change text, a few MB) ordinary messages instead of large
     * messages streamed through files (Artemis' default starts at 100 KB). retryInterval: with the
     * broker down, a send gave up only after about 4 s of Artemis' 2-s retry waits, and a
     * replicator asked to stop waited for the sends under way (StopIT: 7 s, 1.5 s with 100 ms).
     */
    private static final Map<String, String> DEFAULTS = defaults();

    public BrokerConnectionFactory(String url) {
        super(withDefaults(url));
    }

    @Override
    public BrokerConnectionFactory setUser(String user) {
        super.setUser(blankToNull(user));
        return this;
    }

    @Override
    public BrokerConnectionFactory setPassword(String password) {
        super.setPassword(blankToNull(password));
        return this;
    }

    static String withDefaults(String url) {
        StringBuilder out = new StringBuilder(url);
        DEFAULTS.forEach((name, value) -> {
            if (!url.contains(name + "=")) {
                out.append(out.indexOf("?") < 0 ? '?' : '&').append(name).append('=').append(value);
            }
        });
        return out.toString();
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("cacheDestinations", "true");
        d.put("minLargeMessageSize", Integer.toString(MIN_LARGE_MESSAGE_SIZE));
        d.put("retryInterval", "200");
        return d;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
