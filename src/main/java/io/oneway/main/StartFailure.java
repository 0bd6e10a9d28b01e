package io.oneway.main;

import java.net.ConnectException;
import java.sql.SQLException;

import org.apache.camel.NoSuchEndpointException;
import org.apache.camel.PropertyBindingException;

/**
 * Why the replicator could not start, as one line an operator can act on: the innermost
 * cause's message, with what to fix for the failures a configuration typically has. A setting
 * that a bean refused is named without its value: Camel's message quotes the value, and the
 * values bound that way are the secrets (HMAC keys) and logins.
 */
final class StartFailure {

    private StartFailure() {
    }

    static String describe(Throwable failure) {
        Throwable root = failure;
        StringBuilder chain = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            root = t;
            if (t instanceof NoSuchEndpointException) {
                return "Oneway did not start: " + t.getMessage() + " The shipped transports are jms, amqp, file, seda, direct and platform-http "
                        + "(README \"Transports\"); check the endpoint settings and routes/*.camel.yaml.";
            }
            String m = t instanceof PropertyBindingException b ? "the setting " + settingName(b) + " was refused" : t.getMessage();
            if (m != null && !m.isBlank() && chain.indexOf(m) < 0) {
                chain.append(chain.length() == 0 ? "" : ": ").append(m);
            }
        }
        String what = (chain.length() == 0 ? root.getClass().getName() : chain.toString()).replaceAll("\\s*\\R\\s*", " ");
        if (root instanceof ConnectException || root instanceof SQLException) {
            return "Oneway did not start: " + what + " (check oneway.remote.jdbc-url, oneway.central.jdbc-url or oneway.broker.url, "
                    + "and that the server is running)";
        }
        return "Oneway did not start: " + what;
    }

    private static String settingName(PropertyBindingException b) {
        String key = b.getOptionKey() != null ? b.getOptionKey() : b.getPropertyName();
        String prefix = b.getOptionPrefix();
        return prefix == null ? key : prefix.endsWith(".") ? prefix + key : prefix + "." + key;
    }
}
