package io.oneway.ops;

import static io.oneway.testing.Sql.number;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ShopWriter;

/** SPEC §10: broker users and roles per remote; a remote may only send to its inbound address and read its own replies. */
class BrokerSecurityIT {

    private static ReplicationFixture fixture;

    @BeforeAll
    static void start() {
        fixture = ReplicationFixture.running("branch1", ReplicationFixture.secured("branch1"));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void replication_works_with_each_replicator_logged_in_as_itself() throws Exception {
        new ShopWriter(fixture.remote("branch1"), 1_000_000, 9).write(500);
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        for (TableResult r : fixture.verify("branch1")) {
            assertTrue(r.equal(), r.toString());
        }
        assertTrue(number(fixture.central(), "select applied_position from oneway.source_progress") >= 500);
    }

    @Test
    void a_remote_may_send_only_to_its_own_inbound_address_and_read_only_its_own_replies() throws Exception {
        String branch1 = "DEMO-ONLY-branch1-broker-password";
        assertThrows(JMSSecurityException.class, () -> send("branch1", branch1, "oneway.branch2.changes"));
        assertThrows(JMSSecurityException.class, () -> consume("branch1", branch1, "oneway.branch2.replies"));
        assertThrows(JMSSecurityException.class, () -> consume("branch1", branch1, "oneway.branch1.changes"));
        assertThrows(JMSSecurityException.class, () -> send("branch1", branch1, "oneway.branch1.replies"));
        consume("branch1", branch1, "oneway.branch1.replies");
    }

    @Test
    void a_wrong_password_or_an_unknown_user_is_refused_at_once() {
        assertThrows(JMSSecurityException.class, () -> send("branch1", "guessed", "oneway.branch1.changes"));
        assertThrows(JMSSecurityException.class, () -> send("intruder", "whatever", "oneway.branch1.changes"));
    }

    private static void send(String user, String password, String queue) throws JMSException {
        try (ActiveMQConnectionFactory cf = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + fixture.brokerPort());
                Connection c = cf.createConnection(user, password)) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            // not a valid frame: the receiver refuses it, as any other bad message
            s.createProducer(s.createQueue(queue)).send(s.createTextMessage("probe"));
        }
    }

    private static void consume(String user, String password, String queue) throws JMSException {
        try (ActiveMQConnectionFactory cf = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + fixture.brokerPort());
                Connection c = cf.createConnection(user, password)) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createConsumer(s.createQueue(queue)).close();
        }
    }
}
