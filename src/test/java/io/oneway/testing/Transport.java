package io.oneway.testing;

import java.nio.file.Path;
import java.util.Properties;

/**
 * The shipped transports, as README "Transports" sets them up: the endpoint settings of each
 * direction, for a remote of one source and for the central side.
 */
public enum Transport {
    JMS, AMQP, FILES;

    /** The remote's endpoints; {@code lossy}: the lossy link sits in front of the changes. */
    Properties remote(String source, boolean lossy, Path spool) {
        Properties p = new Properties();
        p.setProperty(lossy ? "oneway.lossy.changes-target" : "oneway.send.endpoint", write(source, "changes", spool));
        p.setProperty("oneway.send.reply-endpoint", read(source, "replies", spool));
        return p;
    }

    /** The central side's endpoints for these sources; {@code lossy}: the lossy link sits in front of the replies. */
    Properties central(Iterable<String> sources, boolean lossy, Path spool) {
        Properties p = new Properties();
        for (String source : sources) {
            p.setProperty("oneway.test.changes-in." + source, read(source, "changes", spool));
        }
        p.setProperty(lossy ? "oneway.lossy.replies-target" : "oneway.apply.reply-endpoint", write("${header.OnewaySource}", "replies", spool));
        return p;
    }

    /** What every replicator needs for it, given the broker's port. */
    Properties common(int brokerPort) {
        Properties p = new Properties();
        if (this == AMQP) {
            p.setProperty("oneway.amqp.url", "amqp://127.0.0.1:" + brokerPort);
        }
        if (this == FILES) {
            p.setProperty("oneway.broker.check", "false");
        }
        return p;
    }

    private String write(String source, String direction, Path spool) {
        return switch (this) {
            case JMS -> "jms:queue:oneway." + source + "." + direction;
            case AMQP -> "amqp:queue:oneway." + source + "." + direction;
            case FILES -> "file:" + spool + "/" + source + "/" + direction + "?{{oneway.files.write-options}}";
        };
    }

    private String read(String source, String direction, Path spool) {
        return this == FILES ? "file:" + spool + "/" + source + "/" + direction + "?{{oneway.files.read-options}}" : write(source, direction, spool);
    }
}
