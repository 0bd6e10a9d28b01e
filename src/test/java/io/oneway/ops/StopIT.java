package io.oneway.ops;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ReplicatorProcess;

/**
 * A replicator asked to stop while its broker is down stops in seconds. The notification of the
 * outage goes through that broker (the default oneway.notify.endpoint) and is being delivered
 * again at growing intervals; the stop does not wait for it until Camel's shutdown timeout
 * (camel.main.shutdown-timeout, 15 s, which it took before), and the notification given up on is
 * logged in one line; a send to the broker under way gives up within a fraction of a second
 * (retryInterval 200 ms, BrokerConnectionFactory).
 */
class StopIT {

    @Test
    void a_replicator_stops_in_seconds_while_its_broker_is_down_and_logs_the_undelivered_notification() {
        try (ReplicationFixture fixture = new ReplicationFixture("branch1").with("oneway.send.heartbeat-interval", "1000")
                .with("camel.main.jmx-enabled", "true");
                ReplicatorProcess remote = ReplicatorProcess.start("remote", "256m", fixture.remoteProperties("branch1", new Properties()),
                        "stop-branch1")) {
            fixture.stopBroker();
            // the outage's notification is in the delivery route, being delivered again (JMX on: the route's MBean says so)
            await().atMost(Duration.ofSeconds(30)).until(() -> remote.metric("oneway_stalled", "state=\"broker-unreachable\"") > 0
                    && remote.inflight("deliver-notifications") > 0);
            int before = remote.logLines().size();
            long asked = System.nanoTime();
            remote.close();
            long stopMillis = (System.nanoTime() - asked) / 1_000_000;
            System.out.printf("stopped %d ms after it was asked to, its broker down%n", stopMillis);
            assertFalse(remote.alive());
            // ~1.5 s here; 15 s while the notification held the stop, 7 s while a send to the broker retried every 2 s
            assertTrue(stopMillis < 6_000, "stopped after " + stopMillis + " ms");
            List<String> stopping = remote.logLines().subList(before, remote.logLines().size());
            assertTrue(stopping.stream().anyMatch(l -> l.contains(" undelivered - ") && l.contains("broker-unreachable")), String.join("\n", stopping));
            assertTrue(stopping.stream().noneMatch(l -> l.startsWith("\tat ")), "no stack trace in\n" + String.join("\n", stopping));
        }
    }
}
