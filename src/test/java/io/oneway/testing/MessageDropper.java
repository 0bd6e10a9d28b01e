package io.oneway.testing;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

import io.oneway.wire.Headers;

/**
 * A harness between two queues: passes on every message, and once told to, drops those of some
 * kinds (by their kind header: changes and chunk, the large ones; ack) until told to pass
 * everything again. A link that loses every message of a kind while the others pass.
 */
public final class MessageDropper implements AutoCloseable {

    private final ActiveMQConnectionFactory factory;
    private final Connection connection;
    private final Thread thread;
    private final AtomicBoolean dropping = new AtomicBoolean();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong dropped = new AtomicLong();
    private final Set<String> kinds;

    public MessageDropper(int brokerPort, String from, String to, Set<String> kinds) throws JMSException {
        this.kinds = Set.copyOf(kinds);
        factory = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + brokerPort);
        connection = factory.createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer in = session.createConsumer(session.createQueue(from));
        MessageProducer out = session.createProducer(session.createQueue(to));
        connection.start();
        thread = new Thread(() -> forward(in, out), "message-dropper");
        thread.start();
    }

    private void forward(MessageConsumer in, MessageProducer out) {
        try {
            while (running.get()) {
                Message m = in.receive(100);
                if (m == null) {
                    continue;
                }
                String kind = m.getStringProperty(Headers.KIND);
                if (dropping.get() && kind != null && kinds.contains(kind)) {
                    dropped.incrementAndGet();
                } else {
                    out.send(m);
                }
            }
        } catch (JMSException e) {
            if (running.get()) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** From now on the messages of its kinds are dropped. */
    public void drop() {
        dropping.set(true);
    }

    /** From now on every message passes. */
    public void passEverything() {
        dropping.set(false);
    }

    /** Messages dropped so far. */
    public long dropped() {
        return dropped.get();
    }

    @Override
    public void close() throws Exception {
        running.set(false);
        thread.join();
        connection.close();
        factory.close();
    }
}
