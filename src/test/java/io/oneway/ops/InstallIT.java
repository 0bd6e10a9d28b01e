package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.value;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.testing.CommandOutput;
import io.oneway.testing.PostgresFixture;
import io.oneway.testing.PostgresFixture.TestDatabase;

/**
 * Installing the SQL again (an upgrade) while writers and a replicator hold their locks: the
 * scripts change, and lock, only what differs, so an install with nothing to change never
 * waits for a writer's transaction, and one that must change a table a writer holds waits for
 * it, rolled back and tried again, instead of deadlocking with it.
 */
class InstallIT {

    @Test
    void the_install_command_names_the_database_without_a_password_its_url_carries() throws SQLException {
        TestDatabase db = PostgresFixture.newDatabase("install_url", Part.REMOTE);
        String url = db.jdbcUrl() + (db.jdbcUrl().contains("?") ? "&" : "?") + "password=not-for-the-log";
        Settings settings = Settings.load(Path.of(""), null).with(Map.of("oneway.remote.jdbc-url", url, "oneway.install.user", "postgres"));
        String out = CommandOutput.of(settings, "install", "remote");
        assertTrue(out.contains("SQL is installed on jdbc:postgresql:") && out.contains("password=xxxxxx") && !out.contains("not-for-the-log"), out);
    }

    @Test
    void the_remote_sql_installs_again_beside_an_open_writer_transaction_and_a_status_reader() throws SQLException {
        DataSource db = PostgresFixture.newDatabase("install_remote", Part.REMOTE).dataSource();
        exec(db, "create table shop(id int primary key, v text)");
        exec(db, "select oneway.enable_capture('shop')");
        exec(db, "insert into shop values (1, 'before')");
        exec(db, "select oneway.assign_positions(1000)");
        try (Connection writer = db.getConnection(); Connection reader = db.getConnection()) {
            writer.setAutoCommit(false);
            exec(writer, "insert into shop values (2, 'open')");
            exec(writer, "update shop set v = 'changed' where id = 1");
            reader.setAutoCommit(false);
            exec(reader, "select count(*) from oneway.change_log_status");
            exec(reader, "select count(*) from oneway.transfer_status");
            long captureFunction = number(db, "select to_regprocedure(oneway.capture_function('shop') || '()')::oid");

            // no retries: the first lock that waits longer than the install's lock_timeout fails it
            SchemaInstaller.install(db, Part.REMOTE, Duration.ZERO);
            assertEquals(captureFunction, number(db, "select to_regprocedure(oneway.capture_function('shop') || '()')::oid"),
                    "a capture function as this version makes it is left alone");

            exec(writer, "insert into shop values (3, 'after the install')");
            writer.commit();
            reader.commit();
        }
        assertEquals(4, number(db, "select count(*) from oneway.change_log where object_type = 'public.shop' and op in ('I', 'U', 'D')"));
    }

    @Test
    void the_central_sql_installs_again_beside_an_open_apply_transaction() throws SQLException {
        DataSource db = PostgresFixture.newDatabase("install_central", Part.CENTRAL).dataSource();
        exec(db, "insert into oneway.source_progress(source_id) values ('branch')");
        try (Connection applier = db.getConnection()) {
            applier.setAutoCommit(false);
            exec(applier, "insert into oneway.receive_run(source_id, first_position, last_position, received_at, txids, object_types, "
                    + "object_ids, ops, states, logged_at, fingerprints) values ('branch', 1, 1, now(), '{7}', '{public.shop}', "
                    + "array['{\"id\": 1}'], '{I}', '{R}', array[now()], array['\\x00'::bytea])");
            exec(applier, "update oneway.source_progress set applied_position = 1 where source_id = 'branch'");

            SchemaInstaller.install(db, Part.CENTRAL, Duration.ZERO);

            applier.commit();
        }
        assertEquals(1, number(db, "select applied_position from oneway.source_progress where source_id = 'branch'"));
    }

    @Test
    void what_differs_from_the_scripts_is_changed_back() {
        DataSource db = PostgresFixture.newDatabase("install_upgrade", Part.REMOTE).dataSource();
        exec(db, "alter table oneway.captured_table drop constraint captured_table_capture_mode_check");
        exec(db, "alter table oneway.captured_table add constraint captured_table_capture_mode_check check (capture_mode in ('I', 'R'))");
        // the change log's checks of earlier versions (each cost the capture trigger per row)
        exec(db, "alter table oneway.change_log add constraint change_log_op_check check (op in ('I', 'U', 'D'))");
        exec(db, "alter table oneway.change_log add constraint change_log_state_check check (state in ('L', 'B'))");
        exec(db, "alter table oneway.sender_state drop column central_digest");
        exec(db, "drop index oneway.change_log_unnumbered_txid");
        // the index of installs before the WAL reader's rows were left out of it
        exec(db, "create index change_log_txid on oneway.change_log (txid)");
        exec(db, "drop view oneway.transfer_status");
        exec(db, "create view oneway.transfer_status as select p.position from oneway.change_position p where false");
        exec(db, "alter sequence oneway.change_log_log_id_seq owned by none");

        SchemaInstaller.install(db, Part.REMOTE, Duration.ZERO);

        assertTrue(String.valueOf(value(db, "select pg_get_constraintdef(oid) from pg_constraint "
                + "where conname = 'captured_table_capture_mode_check'")).contains("'W'"));
        assertEquals(0, number(db, "select count(*) from pg_constraint where conrelid = 'oneway.change_log'::regclass and contype = 'c'"));
        assertEquals(1, number(db, "select count(*) from pg_attribute where attrelid = 'oneway.sender_state'::regclass and attname = 'central_digest'"));
        assertEquals(1, number(db, "select count(*) from pg_class where oid = to_regclass('oneway.change_log_unnumbered_txid')"));
        assertEquals(0, number(db, "select count(*) from pg_class where oid = to_regclass('oneway.change_log_txid')"));
        assertTrue(String.valueOf(value(db, "select pg_get_viewdef('oneway.transfer_status')")).contains("blocked_stop"));
        assertEquals(1, number(db, "select count(*) from pg_depend where objid = 'oneway.change_log_log_id_seq'::regclass "
                + "and refobjid = 'oneway.change_log'::regclass and deptype = 'a'"));
        // the view was made again: its grant to the sender role with it
        assertEquals(1, number(db, "select count(*) from information_schema.role_table_grants "
                + "where table_schema = 'oneway' and table_name = 'transfer_status' and grantee = 'oneway_sender'"));
    }

    @Test
    void capture_made_by_an_earlier_version_is_made_anew_and_a_dropped_tables_capture_functions_go_with_it() {
        DataSource db = PostgresFixture.newDatabase("install_capture", Part.REMOTE).dataSource();
        exec(db, "create table stamped(id int primary key, at timestamptz)");
        exec(db, "create table plain(id int primary key, v text)");
        exec(db, "select oneway.enable_capture('stamped'), oneway.enable_capture('plain', 'reference')");
        // before 2026-12-05 the capture function itself set the settings the text forms depend on
        exec(db, "do $$ begin execute format('alter function %s() set timezone = ''UTC'' set datestyle = ''ISO, YMD''', "
                + "oneway.capture_function('stamped')); end $$");
        // a capture trigger lost by hand: the table's changes would no longer be logged
        exec(db, "drop trigger oneway_capture on plain");
        // a table dropped while its drop was not seen: nothing to make, and the install goes on
        exec(db, "insert into oneway.captured_table(table_name, relid, key_columns, capture_mode, columns) "
                + "values ('public.gone', 4000000000, '{id}', 'I', '[]')");
        assertEquals(0, number(db, CURRENT_CAPTURE));
        long logged = number(db, "select count(*) from oneway.change_log");

        SchemaInstaller.install(db, Part.REMOTE, Duration.ZERO);

        assertEquals(2, number(db, CURRENT_CAPTURE));
        assertEquals(0, number(db, "select count(*) from pg_proc where oid = to_regprocedure(oneway.capture_function('stamped') || '()') "
                + "and proconfig is not null"));
        assertEquals(logged, number(db, "select count(*) from oneway.change_log"), "making capture anew logs no schema change");
        exec(db, "insert into stamped values (1, '2026-12-06 10:00+03')");
        exec(db, "insert into plain values (1, 'captured again')");
        assertEquals("2026-12-06 07:00:00+00", value(db, "select row_image ->> 'at' from oneway.change_log where object_type = 'public.stamped' and op = 'I'"));
        assertEquals(1, number(db, "select count(*) from oneway.change_log where object_type = 'public.plain' and op = 'I' and capture_mode = 'R'"));

        String function = String.valueOf(value(db, "select oneway.capture_function('stamped')"));
        exec(db, "drop table stamped");
        assertEquals(0, number(db, "select count(*) from pg_proc where oid in (to_regprocedure('" + function + "()'), "
                + "to_regprocedure('" + function + "_pinned(text, record, record)'))"));
    }

    @Test
    void capture_triggers_of_an_earlier_version_fire_in_replica_sessions_and_guard_partitions_after_the_install_and_one_disabled_by_hand_stays_so() throws SQLException {
        DataSource db = PostgresFixture.newDatabase("install_always", Part.REMOTE).dataSource();
        exec(db, "create table loaded(id int primary key)");
        exec(db, "create table paused(id int primary key)");
        exec(db, "select oneway.enable_capture('loaded'), oneway.enable_capture('paused')");
        // before 2026-12-06 both triggers fired only outside replica sessions
        exec(db, "alter table loaded enable trigger oneway_capture, enable trigger oneway_refuse_truncate");
        exec(db, "alter table paused disable trigger oneway_capture");
        // and a partition's TRUNCATE was not refused; the WAL reader's publication named a partition's changes after the partition
        exec(db, "create table parted(id int, k int, primary key (id, k)) partition by range (k)");
        exec(db, "create table parted_low partition of parted for values from (0) to (10)");
        exec(db, "select oneway.enable_capture('parted')");
        exec(db, "drop trigger oneway_refuse_truncate on parted_low");
        exec(db, "alter table parted_low enable trigger oneway_capture");
        exec(db, "create publication oneway_tables with (publish = 'insert, update, delete')");

        SchemaInstaller.install(db, Part.REMOTE, Duration.ZERO);

        assertEquals("oneway_capture A, oneway_refuse_truncate A", triggers(db, "loaded"));
        assertEquals("oneway_capture D, oneway_refuse_truncate A", triggers(db, "paused"), "an operator's act is not undone");
        assertEquals("oneway_capture A, oneway_refuse_truncate A", triggers(db, "parted_low"));
        assertEquals(Boolean.TRUE, value(db, "select pubviaroot from pg_publication where pubname = 'oneway_tables'"));
        try (Connection c = db.getConnection()) {
            exec(c, "set session_replication_role = replica");
            exec(c, "insert into loaded values (1)");
        }
        assertEquals(1, number(db, "select count(*) from oneway.change_log where object_type = 'public.loaded' and op = 'I'"));
    }

    private static String triggers(DataSource db, String table) {
        return String.valueOf(value(db, "select string_agg(tgname || ' ' || tgenabled::text, ', ' order by tgname) from pg_trigger "
                + "where tgrelid = ?::regclass and tgname like 'oneway%'", table));
    }

    private static final String CURRENT_CAPTURE = "select count(*) from unnest(array['stamped', 'plain']) t "
            + "where oneway.capture_current(t::regclass, 'public.' || t, case t when 'plain' then 'reference' else 'image' end)";

    @Test
    void an_earlier_versions_receive_log_of_one_row_per_change_becomes_runs_read_the_same_through_the_view() {
        DataSource db = PostgresFixture.newDatabase("install_receive_log", Part.CENTRAL).dataSource();
        exec(db, "drop view oneway.receive_log");
        // the table as the first versions made it: no fingerprint nor logged time yet
        exec(db, "create table oneway.receive_log (source_id text not null, position bigint not null, txid bigint not null, "
                + "object_type text not null, object_id jsonb not null, op char(1) not null, state char(1) not null default 'R', "
                + "received_at timestamptz not null, applied_at timestamptz not null default now(), primary key (source_id, position))");
        exec(db, "insert into oneway.receive_log(source_id, position, txid, object_type, object_id, op, state, received_at) values "
                + "('branch', 1, 7, 'public.shop', '{\"id\": \"1\"}', 'I', 'R', now()), "
                + "('branch', 2, 8, 'public.shop', '{\"id\": \"2\"}', 'U', 'S', now())");

        SchemaInstaller.install(db, Part.CENTRAL, Duration.ZERO);

        assertEquals("v", value(db, "select relkind::text from pg_class where oid = 'oneway.receive_log'::regclass"));
        assertEquals(2, number(db, "select count(*) from oneway.receive_run"));
        assertEquals("2", value(db, "select object_id ->> 'id' from oneway.receive_log where position = 2 and op = 'U' and state = 'S' and txid = 8"));
        assertEquals(1, number(db, "select count(*) from oneway.receive_log where position = 1 and fingerprint is null and logged_at is null"));
        assertEquals(1, number(db, "select sum(skipped) from oneway.receive_run where source_id = 'branch'"));
        // the applier reads the view and writes the runs
        assertEquals(1, number(db, "select count(*) from information_schema.role_table_grants "
                + "where table_schema = 'oneway' and table_name = 'receive_log' and grantee = 'oneway_applier' and privilege_type = 'SELECT'"));
        assertEquals(1, number(db, "select count(*) from information_schema.role_table_grants "
                + "where table_schema = 'oneway' and table_name = 'receive_run' and grantee = 'oneway_applier' and privilege_type = 'INSERT'"));
    }

    @Test
    void an_upgrade_that_must_change_a_table_a_writer_holds_waits_for_it_and_completes() throws Exception {
        DataSource db = PostgresFixture.newDatabase("install_waits", Part.REMOTE).dataSource();
        exec(db, "create table shop(id int primary key, v text)");
        exec(db, "select oneway.enable_capture('shop')");
        // an earlier version's check, which the upgrade drops
        exec(db, "alter table oneway.change_log add constraint change_log_op_check check (op in ('I', 'U', 'D', 'S', 'Q', 'B', 'C', 'E'))");
        CompletableFuture<Void> install;
        try (Connection writer = db.getConnection()) {
            writer.setAutoCommit(false);
            exec(writer, "insert into shop values (1, 'holds the change log')");
            install = CompletableFuture.runAsync(() -> SchemaInstaller.install(db, Part.REMOTE));
            await("the install waits for the writer's lock on the change log").atMost(Duration.ofMinutes(1)).until(() ->
                    number(db, "select count(*) from pg_locks where relation = 'oneway.change_log'::regclass and not granted") > 0);
            writer.commit();
        }
        install.get(4, TimeUnit.MINUTES);
        assertEquals(0, number(db, "select count(*) from pg_constraint where conname = 'change_log_op_check'"));
        assertEquals(1, number(db, "select count(*) from oneway.change_log where object_type = 'public.shop' and op in ('I', 'U', 'D')"));
    }

    private static String owner(TestDatabase db) {
        return "owner_of_" + db.name();
    }

    /** A database owned by a new role with CREATEROLE, not a superuser; the data source logs in as that role. */
    private static DataSource ownedByAnAdministrator(TestDatabase db) {
        String owner = owner(db);
        exec(db.dataSource(), "create role " + owner + " login createrole");
        exec(db.dataSource(), "alter database " + db.name() + " owner to " + owner);
        PGSimpleDataSource asOwner = new PGSimpleDataSource();
        asOwner.setUrl(db.jdbcUrl());
        asOwner.setUser(owner);
        return asOwner;
    }

    @Test
    void the_database_owner_installs_the_central_sql_once_a_superuser_let_it_grant_replica_mode_and_is_told_how_before() {
        TestDatabase db = PostgresFixture.newDatabase("install_central_owner");
        DataSource asOwner = ownedByAnAdministrator(db);
        String owner = owner(db);

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> SchemaInstaller.install(asOwner, Part.CENTRAL));
        assertTrue(refused.getMessage().contains("grant set on parameter session_replication_role to " + owner + " with grant option"),
                refused.getMessage());
        assertEquals(0, number(db.dataSource(), "select count(*) from pg_namespace where nspname = 'oneway'"), "nothing of it is installed");

        exec(db.dataSource(), "grant set on parameter session_replication_role to " + owner + " with grant option");
        SchemaInstaller.install(asOwner, Part.CENTRAL);
        assertEquals(1, number(db.dataSource(), "select count(*) from pg_namespace where nspname = 'oneway'"));
    }

    @Test
    void the_remote_sql_is_refused_to_an_installer_that_is_not_a_superuser_with_the_reason() {
        TestDatabase db = PostgresFixture.newDatabase("install_remote_owner");
        DataSource asOwner = ownedByAnAdministrator(db);

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> SchemaInstaller.install(asOwner, Part.REMOTE));
        assertTrue(refused.getMessage().contains("must be installed by a superuser")
                && refused.getMessage().contains("event triggers that capture schema changes"), refused.getMessage());
        assertEquals(0, number(db.dataSource(), "select count(*) from pg_namespace where nspname = 'oneway'"), "nothing of it is installed");
    }
}
