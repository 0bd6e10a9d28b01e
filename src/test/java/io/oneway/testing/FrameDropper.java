package io.oneway.testing;

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
 * A harness between two queues: passes on every message, but drops change frames and chunks (by
 * their kind header) until told to pass everything; heartbeats and the rest go through. A link
 * that loses every large message while small ones pass.
 */
public final class FrameDropper implements AutoCloseable {

    private final ActiveMQConnectionFactory factory;
    private final Connection connection;
    private final Thread thread;
    private final AtomicBoolean dropping = new AtomicBoolean(true);
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong dropped = new AtomicLong();

    public FrameDropper(int brokerPort, String from, String to) throws JMSException {
        factory = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + brokerPort);
        connection = factory.createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer in = session.createConsumer(session.createQueue(from));
        MessageProducer out = session.createProducer(session.createQueue(to));
        connection.start();
        thread = new Thread(() -> forward(in, out), "frame-dropper");
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
                if (dropping.get() && ("changes".equals(kind) || "chunk".equals(kind))) {
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

    /** From now on every message passes. */
    public void passEverything() {
        dropping.set(false);
    }

    /** Change frames and chunks dropped so far. */
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
