package io.oneway.replication;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ShopWriter;
import io.oneway.testing.Transport;
import io.oneway.wire.Headers;

/**
 * README "Deployment": the remote's change log is the durable store, so frames and heartbeats
 * wait in the broker as non-persistent messages (no journal write per frame), over Core JMS and
 * over AMQP alike. The central replicator is not started, so the messages stay in the queue to be
 * looked at.
 */
class NonPersistentSendIT {

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"JMS", "AMQP"})
    void the_remote_sends_its_messages_non_persistent(Transport transport) throws Exception {
        try (ReplicationFixture fixture = new ReplicationFixture("branch1").transport(transport)) {
            ShopWriter.createSharedCustomer(fixture.remote("branch1"));
            fixture.startRemote("branch1");
            new ShopWriter(fixture.remote("branch1"), 1_000_000, 5).write(200);

            List<Waiting> waiting = await().atMost(Duration.ofSeconds(60))
                    .until(() -> waitingMessages(fixture.brokerPort()), w -> w.stream().anyMatch(m -> "changes".equals(m.kind())));

            for (Waiting m : waiting) {
                assertEquals(DeliveryMode.NON_PERSISTENT, m.deliveryMode(), m.toString());
            }
        }
    }

    private record Waiting(String kind, int deliveryMode) {
    }

    /** Every message waiting in the source's changes queue: its kind and its delivery mode as the broker holds it. */
    private static List<Waiting> waitingMessages(int brokerPort) throws JMSException {
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + brokerPort);
                Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            connection.start();
            List<Waiting> waiting = new ArrayList<>();
            try (QueueBrowser browser = session.createBrowser(session.createQueue("oneway.branch1.changes"))) {
                Enumeration<?> messages = browser.getEnumeration();
                while (messages.hasMoreElements()) {
                    Message m = (Message) messages.nextElement();
                    waiting.add(new Waiting(m.getStringProperty(Headers.KIND), m.getJMSDeliveryMode()));
                }
            }
            return waiting;
        }
    }
}
