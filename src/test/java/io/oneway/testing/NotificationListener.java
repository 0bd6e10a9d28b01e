package io.oneway.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/** Subscribes to the operator notification topic and keeps what arrives. */
public final class NotificationListener implements AutoCloseable {

    private final ActiveMQConnectionFactory factory;
    private final Connection connection;
    private final List<String> received = new CopyOnWriteArrayList<>();

    public NotificationListener(int brokerPort) throws JMSException {
        factory = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + brokerPort);
        connection = factory.createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createConsumer(session.createTopic("oneway.notifications")).setMessageListener(m -> {
            try {
                received.add(((TextMessage) m).getText());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        connection.start();
    }

    public List<String> received() {
        return received;
    }

    public List<String> containing(String text) {
        return received.stream().filter(n -> n.contains(text)).toList();
    }

    @Override
    public void close() throws JMSException {
        connection.close();
        factory.close();
    }
}
