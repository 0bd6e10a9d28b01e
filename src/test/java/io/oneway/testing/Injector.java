package io.oneway.testing;

import java.util.HashMap;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.camel.Message;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;

import io.oneway.support.OnewayMetrics;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ControlMessage;
import io.oneway.wire.Headers;
import io.oneway.wire.MalformedMessageException;
import io.oneway.wire.MessageEncoder;
import io.oneway.wire.MessageSigner;
import io.oneway.wire.WireCodec;

/**
 * Puts messages on a broker queue as a sender (or an attacker holding some keys) would: signed frames, control messages, raw
 * text; and takes them off one, as the other side would (decoded, not checked).
 */
public final class Injector implements AutoCloseable {

    private final ActiveMQConnectionFactory factory;
    private final Connection connection;
    private final Session session;
    private final MessageEncoder encoder;
    private final Map<String, MessageConsumer> consumers = new HashMap<>();

    /** @param keys the HMAC keys to sign with, as oneway.keys reads them */
    public Injector(int brokerPort, String keys) throws JMSException {
        factory = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + brokerPort + "?minLargeMessageSize=4194304");
        connection = factory.createConnection();
        session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        encoder = new MessageEncoder(new WireCodec(1 << 24), new MessageSigner(keys), new OnewayMetrics(), "lz4");
        connection.start();
    }

    /**
     * The next message of the queue, decoded ({@link WireCodec#decode}), or null when none came within the timeout.
     * One consumer per queue for the injector's life: a consumer closed after each message would hand the
     * messages it had fetched ahead back to the broker, which delivers them again only later.
     */
    public Object receive(String queue, long timeoutMillis) throws JMSException, MalformedMessageException {
        MessageConsumer c = consumers.get(queue);
        if (c == null) {
            c = session.createConsumer(session.createQueue(queue));
            consumers.put(queue, c);
        }
        jakarta.jms.Message m = c.receive(timeoutMillis);
        return m == null ? null : new WireCodec(1 << 24).decode(m.getBody(byte[].class));
    }

    /** Signs the frame's changes and sends it. */
    public void frame(String queue, ChangeFrame frame) throws JMSException {
        Message m = new DefaultExchange(new DefaultCamelContext()).getMessage();
        m.setBody(frame);
        encoder.encodeFrame(m);
        send(queue, m);
    }

    /** Signs a control message and sends it. */
    public void control(String queue, ControlMessage control) throws JMSException {
        Message m = new DefaultExchange(new DefaultCamelContext()).getMessage();
        m.setBody(control);
        encoder.encodeControl(m);
        send(queue, m);
    }

    /** Sends text as it is, with the routing headers of a change frame. */
    public void raw(String queue, String body, long first, long last) throws JMSException {
        try (MessageProducer p = session.createProducer(session.createQueue(queue))) {
            TextMessage t = session.createTextMessage(body);
            t.setStringProperty(Headers.KIND, "changes");
            t.setLongProperty(Headers.FIRST, first);
            t.setLongProperty(Headers.LAST, last);
            p.send(t);
        }
    }

    private void send(String queue, Message m) throws JMSException {
        try (MessageProducer p = session.createProducer(session.createQueue(queue))) {
            BytesMessage b = session.createBytesMessage();
            b.writeBytes(m.getBody(byte[].class));
            for (String header : new String[] {Headers.KIND, Headers.SOURCE}) {
                b.setStringProperty(header, m.getHeader(header, String.class));
            }
            for (String header : new String[] {Headers.FIRST, Headers.LAST}) {
                if (m.getHeader(header) != null) {
                    b.setLongProperty(header, m.getHeader(header, Long.class));
                }
            }
            p.send(b);
        }
    }

    @Override
    public void close() throws JMSException {
        connection.close();
        factory.close();
    }
}
