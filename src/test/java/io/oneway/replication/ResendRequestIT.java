package io.oneway.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.oneway.testing.Injector;
import io.oneway.testing.ReplicationFixture;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ControlMessage;

/**
 * Each resend request goes out oneway.apply.request-copies times (2 by default), back to back
 * with the same id: on a link that loses messages, a lost request is otherwise noticed only by
 * waiting for its answer (BENCHMARKS.md, the lossy link). The test stands in for a remote on the
 * broker's queues: a frame with a gap before it makes the central side ask for the gap.
 */
class ResendRequestIT {

    private static final String KEYS = "branch1=DEMO-ONLY-branch1-hmac-key-change-me";
    private static final String INCARNATION = "11111111-2222-3333-4444-555555555555";

    @Test
    void each_resend_request_arrives_twice_with_the_same_id() throws Exception {
        assertEquals(List.of("1..2 #A", "1..2 #A"), firstRequests(new ReplicationFixture(), 2));
    }

    @Test
    void one_copy_when_so_set() throws Exception {
        List<String> requests = firstRequests(new ReplicationFixture().with("oneway.apply.request-copies", "1"), 2);
        assertEquals(List.of("1..2 #A", "1..2 #B"), requests, "the second request is a repeat with an id of its own");
    }

    /** The first {@code count} resend requests for positions 1..2 as "from..to #id", ids lettered in order of appearance. */
    private static List<String> firstRequests(ReplicationFixture setup, int count) throws Exception {
        try (ReplicationFixture fixture = setup) {
            fixture.startCentral();
            try (Injector remote = new Injector(fixture.brokerPort(), KEYS)) {
                remote.frame("oneway.branch1.changes", new ChangeFrame("branch1", INCARNATION, List.of(new ChangeRecord(3, 1003, true,
                        "shop.tags", "I", false, "{\"id\": 3}", "{\"id\": 3, \"name\": \"three\"}", "2026-01-01 00:00:00+00", null))));
                List<String> out = new ArrayList<>();
                List<Long> ids = new ArrayList<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (out.size() < count && System.nanoTime() < deadline) {
                    if (remote.receive("oneway.branch1.replies", 500) instanceof ControlMessage c && c.kind() == ControlMessage.Kind.RESEND) {
                        if (!ids.contains(c.id())) {
                            ids.add(c.id());
                        }
                        out.add(c.from() + ".." + c.to() + " #" + (char) ('A' + ids.indexOf(c.id())));
                    }
                }
                return out;
            }
        }
    }
}
