package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import io.oneway.testing.Injector;
import io.oneway.testing.ReplicationFixture;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ControlMessage;

/**
 * The sender tells at once that it answered a resend request: a heartbeat naming the request
 * follows the answer, so a central side whose answer was lost on the way asks again
 * oneway.apply.answer-settle later, not a heartbeat interval later (BENCHMARKS.md, the lossy link).
 * The test stands in for the central side on the broker's queues; heartbeats are otherwise ten
 * minutes apart here, so only the answer's own heartbeat can name the request.
 */
class ResendAnswerIT {

    private static final String KEYS = "branch1=DEMO-ONLY-branch1-hmac-key-change-me";
    private static final String CHANGES = "oneway.branch1.changes";

    @Test
    void a_heartbeat_naming_the_request_follows_its_answer_at_once() throws Exception {
        try (ReplicationFixture fixture = new ReplicationFixture("branch1").with("oneway.send.heartbeat-interval", "600000")) {
            fixture.startRemote("branch1");
            exec(fixture.remote("branch1"), "insert into shop.tags values (1, 'one'), (2, 'two')");
            try (Injector central = new Injector(fixture.brokerPort(), KEYS)) {
                ChangeFrame sent = (ChangeFrame) next(central, m -> m instanceof ChangeFrame, Duration.ofSeconds(60));
                central.control("oneway.branch1.replies", ControlMessage.resend("branch1", sent.incarnation(), sent.first(), sent.last(), 42));

                ChangeFrame answer = (ChangeFrame) next(central, m -> m instanceof ChangeFrame, Duration.ofSeconds(30));
                assertTrue(answer.first() == sent.first() && answer.last() == sent.last(), "the range asked for is sent again");
                next(central, m -> m instanceof ControlMessage c && c.kind() == ControlMessage.Kind.HEARTBEAT && c.id() == 42,
                        Duration.ofSeconds(30));
            }
        }
    }

    /** Takes messages off the changes queue until one matches; fails when none did in time. */
    private static Object next(Injector central, Predicate<Object> wanted, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Object m = central.receive(CHANGES, 500);
            if (m != null && wanted.test(m)) {
                return m;
            }
        }
        throw new AssertionError("no such message on " + CHANGES + " within " + within);
    }
}
