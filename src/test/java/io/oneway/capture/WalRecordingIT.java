package io.oneway.capture;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.testing.PostgresFixture;

/**
 * WalRecording against a real remote database (sql/remote/12-wal.sql): a run's rows go into the
 * change log by COPY with every byte of their text as it was, numbered after the counter, a row its
 * transaction logged itself numbered without a new row; a run whose positions would leave a gap is
 * refused and changes nothing. (Reading the slot end to end: WalCaptureIT and the WAL ITs.)
 */
class WalRecordingIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void a_run_is_copied_byte_for_byte_and_numbered_after_the_counter() throws Exception {
        DataSource db = PostgresFixture.newDatabase("wal_recording", Part.REMOTE).dataSource();
        exec(db, "update oneway.position_counter set last_position = 41");
        exec(db, "insert into oneway.change_log(log_id, object_type, object_id, op, capture_mode) values (900, 'shop.docs', '{\"id\": 1}', 'I', 'R')");
        String text = "tab\there \"q\" back\\slash \\N \u0001 nl\n cr\r é 😀";
        String table = "shop.\"odd\ttable\\\"";
        WalBatch batch = new WalBatch();
        batch.addRow(700, "2026-12-01T00:00:00Z", table, 'I', new String[] {"id", "we\"ird\tname"},
                new TextValue[] {TextValue.of("7"), TextValue.of(text)}, new boolean[] {true, false},
                new TextValue[] {TextValue.of("7"), TextValue.of(text)});
        batch.addLogRow(700, 900);
        batch.endTransaction();
        batch.addRow(701, "2026-12-01T00:00:01Z", "shop.customers", 'D', new String[] {"id"}, new TextValue[] {TextValue.of("8")},
                new boolean[] {true}, null);
        batch.endTransaction();

        WalRecording.Recorded recorded;
        try (Connection c = db.getConnection()) {
            recorded = WalRecording.record(c, batch.takeReady(), "0/16B3748", 1, true);
        }
        assertEquals(new WalRecording.Recorded(3, 2, 44), recorded);
        List<Map<String, Object>> log = rows(db, "select p.position, p.tx_end, l.log_id, l.object_type, l.object_id::text as k, l.op, l.capture_mode, "
                + "l.row_image::text as r, l.logged_at = '2026-12-01T00:00:00Z' as at_commit, l.txid & 4294967295 as xid "
                + "from oneway.change_position p join oneway.change_log l using (log_id) order by p.position");
        assertEquals(3, log.size());
        assertEquals(42L, log.get(0).get("position"));
        assertEquals(table, log.get(0).get("object_type"));
        assertEquals(text, JSON.readTree((String) log.get(0).get("r")).get("we\"ird\tname").asText());
        assertEquals("7", JSON.readTree((String) log.get(0).get("k")).get("id").asText());
        assertEquals("W", log.get(0).get("capture_mode"));
        assertEquals(700L, log.get(0).get("xid"));
        assertEquals(true, log.get(0).get("at_commit"));
        assertEquals(false, log.get(0).get("tx_end"));
        assertEquals(900L, log.get(1).get("log_id"), "the row its transaction logged, numbered in its place");
        assertEquals(true, log.get(1).get("tx_end"));
        assertEquals("D", log.get(2).get("op"));
        assertEquals(null, log.get(2).get("r"));
        assertEquals(44, number(db, "select last_position from oneway.position_counter"));
        assertEquals(1, number(db, "select count(*) from oneway.position_counter where wal_lsn = '0/16B3748' and wal_items = 1 and wal_done"));
    }

    @Test
    void a_run_whose_positions_leave_a_gap_is_refused_and_changes_nothing() throws Exception {
        DataSource db = PostgresFixture.newDatabase("wal_recording_gap", Part.REMOTE).dataSource();
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            exec(c, "select * from oneway.begin_wal_recording(0, '{}')");
            exec(c, "insert into oneway.change_position(position, log_id, tx_end) values (1, 1, true), (3, 3, true)");
            SQLException gap = assertThrows(SQLException.class, () -> exec(c, "select oneway.end_wal_recording(3, '0/1', 0, true)"));
            assertTrue(gap.getMessage().contains("numbered 3 changes after position 0 but wrote 2 positions"), gap.getMessage());
            c.rollback();
        }
        assertEquals(0, number(db, "select last_position from oneway.position_counter"));
        assertEquals(0, number(db, "select count(*) from oneway.change_position"));
    }
}
