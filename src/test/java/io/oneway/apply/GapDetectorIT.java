package io.oneway.apply;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.support.OnewayMetrics;
import io.oneway.testing.PostgresFixture;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ControlMessage;

/** The founding document's step 2 against a real central database: when a missing range is asked for again. */
class GapDetectorIT {

    private static final String INCARNATION = "6f1c1f4e-3b9a-4c55-9d43-0b8f3c2a7e10";
    private DataSource central;
    private GapDetector detector;

    @BeforeEach
    void freshCentral() {
        central = PostgresFixture.newDatabase("gaps", Part.CENTRAL).dataSource();
        exec(central, "create table items(id int primary key, v text)");
        // resend-after of a minute: only requests that are due at once can show up in this test
        detector = new GapDetector(new ChangeApplier(central, new TableCatalog(central, "public.items")), new OnewayMetrics(),
                new ReceiverSettings(60_000, 10_000, 1_000, 60_000));
    }

    @Test
    void positions_announced_by_a_heartbeat_are_not_asked_for_while_the_frames_before_them_still_arrive() throws Exception {
        assertNull(detector.onFrame(frame(1, 2)));
        // the sender has sent up to 6; frames 3..4 and 5..6 are still queued on the way
        assertNull(detector.onHeartbeat(ControlMessage.heartbeat("s", INCARNATION, 6)));
        assertNull(detector.onFrame(frame(3, 4)), "5..6 are still on their way: no resend request yet");
        assertNull(detector.onFrame(frame(5, 6)));
        assertEquals(6, number(central, "select count(*) from items"));
    }

    @Test
    void a_frame_beyond_a_missing_range_asks_for_it_at_once() throws Exception {
        assertNull(detector.onFrame(frame(1, 2)));
        ControlMessage request = detector.onFrame(frame(5, 6));

        assertEquals(ControlMessage.resend("s", INCARNATION, 3, 4), request);
        assertNull(detector.onFrame(frame(3, 4)));
        assertEquals(6, number(central, "select count(*) from items"));
    }

    /** Inserts of items from..to, each its own transaction. */
    private static ChangeFrame frame(long from, long to) {
        List<ChangeRecord> changes = new ArrayList<>();
        for (long p = from; p <= to; p++) {
            changes.add(new ChangeRecord(p, p, true, "public.items", "I", false, "{\"id\": " + p + "}", "{\"id\": " + p + ", \"v\": \"x\"}",
                    "2026-11-30 10:00:00+00", "not checked here"));
        }
        return new ChangeFrame("s", INCARNATION, changes);
    }
}
