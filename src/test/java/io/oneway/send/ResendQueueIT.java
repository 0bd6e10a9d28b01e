package io.oneway.send;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javax.sql.DataSource;

import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultMessage;
import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.support.OnewayMetrics;
import io.oneway.support.Refusals;
import io.oneway.testing.PostgresFixture;
import io.oneway.testing.Sql;
import io.oneway.wire.ControlMessage;

/** The sender's side of resend requests, against a real remote database. */
class ResendQueueIT {

    private final DataSource remote = PostgresFixture.newDatabase("resends", Part.REMOTE).dataSource();
    private final SourceIdentity identity = new SourceIdentity(remote);

    ResendQueueIT() {
        identity.setSource("s");
    }

    @Test
    void the_newest_request_is_served_a_burst_for_the_same_range_once_and_each_is_reported_answered() {
        Sql.exec(remote, "update oneway.sender_state set sent_position = 100");
        ResendQueue queue = new ResendQueue(identity, window(), 60_000, new OnewayMetrics(), new Refusals(new OnewayMetrics(), 60_000));
        queue.offer(request(11, 20, 1));
        queue.offer(request(11, 30, 2));
        DefaultMessage served = new DefaultMessage(new DefaultCamelContext());
        assertTrue(queue.next(served));
        assertEquals(11L, served.getHeader(SendWindow.RESEND_FROM));
        assertEquals(30L, served.getHeader(SendWindow.RESEND_TO), "the newer request replaced the older one");
        assertFalse(queue.next(new DefaultMessage(new DefaultCamelContext())), "nothing waits");
        queue.served();
        assertEquals(2, queue.heartbeat().id());

        queue.offer(request(11, 30, 3));
        assertFalse(queue.next(new DefaultMessage(new DefaultCamelContext())), "the same range again, just after it was resent");
        assertEquals(3, queue.heartbeat().id(), "answered by the copy sent just before");
        queue.offer(request(31, 40, 4));
        assertTrue(queue.next(new DefaultMessage(new DefaultCamelContext())), "another range");
    }

    @Test
    void the_copies_of_a_request_count_once() {
        OnewayMetrics metrics = new OnewayMetrics();
        ResendQueue queue = new ResendQueue(identity, window(), 60_000, metrics, new Refusals(metrics, 60_000));
        queue.offer(request(11, 20, 7));
        queue.offer(request(11, 20, 7));
        queue.offer(request(11, 20, 8));
        assertEquals(2.0, metrics.counter("oneway_resend_requests", "s").count());
    }

    @Test
    void what_was_never_sent_is_not_sent_on_request() {
        Sql.exec(remote, "update oneway.sender_state set sent_position = 15");
        ResendQueue queue = new ResendQueue(identity, window(), 0, new OnewayMetrics(), new Refusals(new OnewayMetrics(), 60_000));
        queue.offer(request(11, 20, 1));
        DefaultMessage served = new DefaultMessage(new DefaultCamelContext());
        assertTrue(queue.next(served));
        assertEquals(15L, served.getHeader(SendWindow.RESEND_TO));
        queue.offer(request(16, 20, 2));
        assertFalse(queue.next(new DefaultMessage(new DefaultCamelContext())));
    }

    @Test
    void a_request_of_another_incarnation_is_refused_and_kept_for_the_monitor_not_served() {
        Sql.exec(remote, "update oneway.sender_state set sent_position = 100");
        OnewayMetrics metrics = new OnewayMetrics();
        Refusals refusals = new Refusals(metrics, 60_000);
        ResendQueue queue = new ResendQueue(identity, window(), 0, metrics, refusals);
        long before = System.currentTimeMillis();
        queue.offer(ControlMessage.resend("s", "an-earlier-install", 11, 20, 1));
        assertFalse(queue.next(new DefaultMessage(new DefaultCamelContext())), "not served");
        assertEquals(1.0, metrics.counter("oneway_refused_messages", "s", "reason", "incarnation").count());
        assertTrue(refusals.since("s", before).last().startsWith("incarnation: resend request of incarnation an-earlier-install: this remote "
                + "database is incarnation " + identity.incarnation()), refusals.since("s", before).last());
    }

    private SendWindow window() {
        return new SendWindow(remote, identity, 1000, 1 << 20, 3000, 60_000, 500, new OnewayMetrics());
    }

    private ControlMessage request(long from, long to, long id) {
        return ControlMessage.resend("s", identity.incarnation(), from, to, id);
    }
}
