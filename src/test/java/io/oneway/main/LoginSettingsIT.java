package io.oneway.main;

import static io.oneway.testing.Sql.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import com.zaxxer.hikari.HikariDataSource;

import io.oneway.ops.Verifier.TableResult;
import io.oneway.send.SourceIdentity;
import io.oneway.support.BrokerConnectionFactory;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ReplicatorProcess;
import io.oneway.wire.ControlMessage;
import io.oneway.wire.MessageSigner;

/**
 * Settings are any text: a password of digits alone, one that reads as a boolean or holds a quote and a comma, a
 * broker user of digits, HMAC keys with quotes and commas and a source id of digits alone (a valid one) reach the
 * replicator as written, and it starts and replicates, from the WAL too. Camel cannot pass such values to a
 * constructor's String parameter (the bean is not made, and the replicator does not start, with "Cannot create
 * instance of class"), so they are set as properties.
 */
class LoginSettingsIT {

    private static final String KEYS = "branch1=TEST-ONLY it's the key of branch1, 42;branch2=TEST-ONLY 1234567890123456";

    @Test
    void passwords_users_and_source_ids_of_any_text_are_taken_as_written() throws Exception {
        // the embedded servers trust local connections and the test broker checks no login: what is tested is that the
        // values reach the connection factories and pools as written, and that the replicators start with them
        try (ReplicationFixture fixture = new ReplicationFixture("branch1").fromWal()
                .with("oneway.remote.password", "123456").with("oneway.central.password", "true")
                .with("oneway.broker.user", "2024").with("oneway.broker.password", "it's, true")
                .with("oneway.keys", KEYS)) {
            ReplicationFixture.running("branch1", fixture);
            fixture.captureFromWal("branch1", "shop.tags");

            BrokerConnectionFactory broker = fixture.remoteBean("branch1", "artemisConnectionFactory", BrokerConnectionFactory.class);
            assertEquals("2024", broker.getUser());
            assertEquals("it's, true", broker.getPassword());
            assertEquals("123456", fixture.remoteBean("branch1", "remoteDataSource", HikariDataSource.class).getPassword());
            assertEquals("true", fixture.centralBean("centralDataSource", HikariDataSource.class).getPassword());
            org.apache.qpid.jms.JmsConnectionFactory amqp = fixture.centralBean("amqpClientFactory", org.apache.qpid.jms.JmsConnectionFactory.class);
            assertEquals("2024", amqp.getUsername());
            assertEquals("it's, true", amqp.getPassword());
            for (MessageSigner signer : List.of(fixture.remoteBean("branch1", "messageSigner", MessageSigner.class),
                    fixture.centralBean("messageSigner", MessageSigner.class))) {
                ControlMessage signed = new MessageSigner(KEYS).sign(ControlMessage.heartbeat("branch1", "inc", 1, 1, 0, 0));
                assertTrue(signer.check(signed).isEmpty(), "the replicator holds branch1's key as written");
            }

            // signed and checked with the key as written
            exec(fixture.remote("branch1"), "insert into shop.tags values (1, 'read from the WAL with the pool''s login')");
            fixture.awaitCaughtUp("branch1", Duration.ofMinutes(1));
            for (TableResult r : fixture.verify("branch1")) {
                assertTrue(r.equal(), r.toString());
            }

            // a source id of digits alone: a second remote replicator of the same database, started under it
            fixture.stopRemote("branch1");
            Properties own = new Properties();
            own.setProperty("oneway.source.id", "42");
            fixture.startRemote("branch1", own);
            assertEquals("42", fixture.remoteBean("branch1", "sourceIdentity", SourceIdentity.class).source());
        }
    }

    @Test
    void no_password_or_key_is_written_to_the_log() throws Exception {
        try (ReplicationFixture fixture = new ReplicationFixture("branch1")) {
            Properties own = new Properties();
            own.setProperty("oneway.remote.password", "TEST-SECRET-remote");
            own.setProperty("oneway.broker.password", "TEST-SECRET-broker");
            own.setProperty("oneway.keys", "branch1=TEST-SECRET-key-of-branch1;branch2=TEST-SECRET-key-of-branch2");
            try (ReplicatorProcess remote = ReplicatorProcess.start("remote", "256m", fixture.remoteProperties("branch1", own), "secrets-remote")) {
                List<String> lines = remote.logLines();
                assertTrue(lines.stream().anyMatch(l -> l.contains("oneway.keys = xxxxxx")), "the settings summary names the keys, masked");
                assertEquals(List.of(), lines.stream().filter(l -> l.contains("TEST-SECRET")).toList());
            }
        }
    }
}
