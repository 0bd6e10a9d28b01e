package io.oneway.send;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javax.sql.DataSource;

import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultMessage;
import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.testing.PostgresFixture;
import io.oneway.wire.ControlMessage;

/** The sender's side of resend requests, against a real remote database. */
class SendWindowIT {

    private final DataSource remote = PostgresFixture.newDatabase("window", Part.REMOTE).dataSource();
    private final SourceIdentity identity = new SourceIdentity("s", remote);

    @Test
    void a_burst_of_requests_for_the_same_range_is_served_once_and_a_new_range_at_once() {
        SendWindow window = new SendWindow(remote, identity, 1000, 3000, 60_000, 500, 60_000);
        DefaultMessage first = request(11, 20);
        assertTrue(window.resendRange(first));
        assertEquals(11L, first.getHeader(SendWindow.RESEND_FROM));
        assertEquals(20L, first.getHeader(SendWindow.RESEND_TO));

        assertFalse(window.resendRange(request(11, 20)), "the same range again, just after it was resent");
        assertFalse(window.resendRange(request(11, 15)), "a part of it");
        assertTrue(window.resendRange(request(11, 30)), "a longer range");
        assertTrue(window.resendRange(request(21, 30)), "another range");
    }

    @Test
    void without_a_dedup_window_every_request_is_served() {
        SendWindow window = new SendWindow(remote, identity, 1000, 3000, 60_000, 500, 0);
        assertTrue(window.resendRange(request(11, 20)));
        assertTrue(window.resendRange(request(11, 20)));
    }

    private DefaultMessage request(long from, long to) {
        DefaultMessage m = new DefaultMessage(new DefaultCamelContext());
        m.setBody(ControlMessage.resend("s", identity.incarnation(), from, to));
        return m;
    }
}
