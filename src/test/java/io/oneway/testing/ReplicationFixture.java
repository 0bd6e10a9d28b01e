package io.oneway.testing;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import javax.sql.DataSource;

import org.apache.camel.main.Main;
import org.apache.camel.spi.RouteController;

import io.oneway.main.BrokerUsers;
import io.oneway.main.EmbeddedBroker;
import io.oneway.main.OnewayMain;
import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.ops.Verifier;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.PostgresFixture.TestDatabase;

/**
 * A real replication set-up for a test class: an Artemis broker from artemis-config/broker.xml,
 * a central database and remote databases (sources branch1, branch2) with the shop schema,
 * and the central and remote replicators as separate Camel Mains, each stoppable and restartable.
 */
public final class ReplicationFixture implements AutoCloseable {

    public static final List<String> TABLES = List.of("shop.customers", "shop.orders", "shop.order_lines", "shop.documents", "shop.tags");
    private static final String CENTRAL_ROUTES = "file:routes/error-handling.camel.yaml,file:routes/receive-changes.camel.yaml,"
            + "file:src/test/resources/routes/sources-two.camel.yaml,file:routes/send-replies.camel.yaml,"
            + "file:routes/acknowledge-changes.camel.yaml,file:routes/lossy-link.camel.yaml,file:routes/watch-sources.camel.yaml,"
            + "file:routes/notify-operators.camel.yaml,file:routes/purge-receive-log.camel.yaml";

    private final EmbeddedBroker broker;
    private final int brokerPort;
    private final TestDatabase central;
    private final Map<String, TestDatabase> remotes = new HashMap<>();
    private final Map<String, Main> remoteMains = new HashMap<>();
    private final List<ReplicatorProcess> watched = new ArrayList<>();
    private final Properties common = new Properties();
    private final boolean secured;
    private final Path spool;
    private Transport transport = Transport.JMS;
    private boolean lossy;
    private boolean fromWal;
    private Main centralMain;

    public ReplicationFixture(String... sources) {
        this(null, sources);
    }

    /** Replication through a broker that checks users and per-source permissions; each replicator logs in as itself. */
    public static ReplicationFixture secured(String... sources) {
        return new ReplicationFixture(BrokerUsers.load(Path.of("artemis-config/artemis-users.properties"),
                Path.of("artemis-config/artemis-roles.properties")), sources);
    }

    private ReplicationFixture(BrokerUsers users, String... sources) {
        try {
            brokerPort = Ports.free();
            broker = new EmbeddedBroker("artemis-config/broker.xml", ScratchDirs.create("oneway-broker"), brokerPort, users);
            spool = ScratchDirs.create("oneway-spool");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        secured = users != null;
        broker.start();
        central = PostgresFixture.newDatabase("central", Part.CENTRAL);
        exec(central.dataSource(), shopSchema());
        for (String table : TABLES) {
            exec(central.dataSource(), "select oneway.enable_apply(?::regclass)", table);
        }
        for (String source : sources) {
            TestDatabase remote = PostgresFixture.newDatabase("remote_" + source, Part.REMOTE);
            exec(remote.dataSource(), shopSchema());
            exec(remote.dataSource(), "select oneway.enable_capture(t::regclass) from unnest(array['shop.customers', 'shop.orders', 'shop.order_lines', 'shop.tags']) t");
            remotes.put(source, remote);
        }
        common.setProperty("oneway.embedded.enabled", "false");
        common.setProperty("oneway.demo.enabled", "false");
        // a plain URL, as the README shows: the factory adds its defaults
        common.setProperty("oneway.broker.url", "tcp://127.0.0.1:" + brokerPort);
        common.setProperty("camel.management.enabled", "false");
        common.setProperty("camel.main.jmx-enabled", "false");
        common.setProperty("camel.metrics.enabled", "false");
        common.setProperty("oneway.apply.tables", String.join(",", TABLES));
        common.setProperty("oneway.send.retransmit-after", "1500");
        common.setProperty("oneway.send.max-retransmit-after", "4000");
        // acks repeat more often than retransmissions are due: a live central side is never sent things twice for nothing
        common.setProperty("oneway.apply.ack-repeat", "1000");
        common.setProperty("oneway.notify.check-interval", "300");
    }

    /** A fixture for one source with the shared customer in place, both replicators running. */
    public static ReplicationFixture running(String source, ReplicationFixture fixture) {
        ShopWriter.createSharedCustomer(fixture.remote(source));
        fixture.startCentral();
        fixture.startRemote(source);
        return fixture;
    }

    /** A setting for both replicators (call before starting them). */
    public ReplicationFixture with(String key, String value) {
        common.setProperty(key, value);
        return this;
    }

    /**
     * Remote replicators read the WAL (oneway.capture.from-wal), each from a slot named after its
     * database (slots are per server, and tests share one); the slots are dropped at close.
     */
    public ReplicationFixture fromWal() {
        fromWal = true;
        common.setProperty("oneway.capture.from-wal", "true");
        return this;
    }

    /** Once the remote replicator numbers from the WAL, switches these tables to capture from it. */
    public void captureFromWal(String source, String... tables) {
        await().atMost(Duration.ofSeconds(60)).until(() -> number(remote(source), "select count(wal_slot) from oneway.position_counter") == 1);
        for (String table : tables) {
            exec(remote(source), "select oneway.enable_capture(?::regclass, 'wal')", table);
        }
    }

    /** Sends both directions over this transport instead of Artemis core JMS (call before starting the replicators). */
    public ReplicationFixture transport(Transport t) {
        transport = t;
        common.putAll(t.common(brokerPort));
        return this;
    }

    /** Puts the lossy link in both directions with these settings (call before starting the replicators). */
    public ReplicationFixture lossy(double drop, double duplicate, double corrupt, int reorderWindow) {
        lossy = true;
        common.setProperty("oneway.send.endpoint", "direct:lossy-changes");
        common.setProperty("oneway.apply.reply-endpoint", "direct:lossy-replies");
        common.setProperty("oneway.lossy.drop", Double.toString(drop));
        common.setProperty("oneway.lossy.duplicate", Double.toString(duplicate));
        common.setProperty("oneway.lossy.corrupt", Double.toString(corrupt));
        common.setProperty("oneway.lossy.reorder-window", Integer.toString(reorderWindow));
        return this;
    }

    public void startCentral() {
        startCentral(new Properties());
    }

    /** Starts the central replicator with some settings of its own, e.g. another database user. */
    public void startCentral(Properties own) {
        Properties p = centralProperties();
        p.putAll(own);
        centralMain = start("central", p);
    }

    /** The settings of this fixture's central replicator. */
    public Properties centralProperties() {
        Properties p = new Properties();
        p.putAll(common);
        p.setProperty("camel.main.name", "central");
        p.setProperty("camel.main.routes-include-pattern", CENTRAL_ROUTES);
        p.setProperty("oneway.central.jdbc-url", central.jdbcUrl());
        p.setProperty("oneway.remote.jdbc-url", "jdbc:postgresql://localhost:1/unused");
        p.putAll(transport.central(List.of("branch1", "branch2"), lossy, spool));
        if (secured) {
            p.setProperty("oneway.broker.user", "central");
            p.setProperty("oneway.broker.password", "DEMO-ONLY-central-broker-password");
        }
        return p;
    }

    public void stopCentral() {
        centralMain.stop();
        centralMain = null;
    }

    public void startRemote(String source) {
        startRemote(source, new Properties());
    }

    /** Starts a remote replicator with some settings of its own, e.g. another database user. */
    public void startRemote(String source, Properties own) {
        remoteMains.put(source, start("remote", remoteProperties(source, own)));
    }

    /** The settings of this fixture's remote replicator of a source, with some of its own. */
    public Properties remoteProperties(String source, Properties own) {
        Properties p = new Properties();
        p.putAll(common);
        p.setProperty("camel.main.name", "remote-" + source);
        p.setProperty("oneway.source.id", source);
        p.setProperty("oneway.remote.jdbc-url", remotes.get(source).jdbcUrl());
        p.setProperty("oneway.central.jdbc-url", "jdbc:postgresql://localhost:1/unused");
        p.putAll(transport.remote(source, lossy, spool));
        if (fromWal) {
            p.setProperty("oneway.capture.wal-slot", "oneway_" + remotes.get(source).name());
        }
        if (secured) {
            p.setProperty("oneway.broker.user", source);
            p.setProperty("oneway.broker.password", "DEMO-ONLY-" + source + "-broker-password");
        }
        p.putAll(own);
        return p;
    }

    public void stopRemote(String source) {
        remoteMains.remove(source).stop();
    }

    /** A bean of a running remote replicator, e.g. its transferWatch. */
    public <T> T remoteBean(String source, String name, Class<T> type) {
        return remoteMains.get(source).getCamelContext().getRegistry().lookupByNameAndType(name, type);
    }

    /** The route controller of a running remote replicator: a test stops and starts its routes as a failure would. */
    public RouteController remoteRoutes(String source) {
        return remoteMains.get(source).getCamelContext().getRouteController();
    }

    public <T> T centralBean(String name, Class<T> type) {
        return centralMain.getCamelContext().getRegistry().lookupByNameAndType(name, type);
    }

    /** The settings an operator command would use against this fixture's databases. */
    public Map<String, String> commandSettings(String source) {
        return Map.of("oneway.remote.jdbc-url", remotes.get(source).jdbcUrl(), "oneway.central.jdbc-url", central.jdbcUrl(),
                "oneway.remote.user", "postgres", "oneway.central.user", "postgres", "oneway.apply.tables", String.join(",", TABLES));
    }

    public DataSource remote(String source) {
        return remotes.get(source).dataSource();
    }

    public DataSource central() {
        return central.dataSource();
    }

    public int brokerPort() {
        return brokerPort;
    }

    /**
     * A replicator this fixture's set-up runs in a process of its own: waits fail at once, with
     * why, when it has ended (out of memory, say) instead of running out their time; closed with
     * the fixture.
     */
    public ReplicatorProcess watch(ReplicatorProcess process) {
        watched.add(process);
        return process;
    }

    /** Stops the broker (its journal stays), as an outage would. */
    public void stopBroker() {
        broker.stop();
    }

    /** Starts the broker again after {@link #stopBroker()}. */
    public void startBroker() {
        broker.start();
    }

    /**
     * Waits until every change committed on the source so far is positioned and applied on the
     * central database (from the WAL: once the slot was read past the WAL written so far).
     */
    public void awaitCaughtUp(String source, Duration atMost) {
        // the insert position, past every commit so far: the write position (pg_current_wal_lsn) lags behind
        // an asynchronous commit, so a slot could pass it before the reader has seen the last transaction
        String written = (String) Sql.value(remote(source), "select pg_current_wal_insert_lsn()::text");
        await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> {
            watched.forEach(ReplicatorProcess::checkAlive);
            if (number(remote(source), "select count(*) from oneway.position_counter c left join pg_replication_slots s on s.slot_name = c.wal_slot "
                    + "where c.wal_slot is not null and (s.confirmed_flush_lsn is null or s.confirmed_flush_lsn < ?::pg_lsn)", written) > 0) {
                return false;
            }
            long unpositioned = number(remote(source), "select count(*) from oneway.change_log_status where position is null");
            long positioned = number(remote(source), "select last_position from oneway.position_counter");
            long applied = number(central(), "select coalesce(max(applied_position), 0) from oneway.source_progress where source_id = ?", source);
            return unpositioned == 0 && applied == positioned;
        });
    }

    public List<TableResult> verify(String source) throws Exception {
        return new Verifier(remote(source), central(), 10).verify(TABLES);
    }

    @Override
    public void close() {
        // the watched processes, the last started first (a remote before the central replicator it sends to)
        for (int i = watched.size() - 1; i >= 0; i--) {
            watched.get(i).close();
        }
        for (Main m : remoteMains.values()) {
            m.stop();
        }
        remoteMains.clear();
        if (centralMain != null) {
            centralMain.stop();
        }
        broker.stop();
        if (fromWal) {
            remotes.values().forEach(ReplicationFixture::dropSlots);
        }
    }

    /** Drops a database's replication slots once no replicator reads them (a replicator killed in a test lets go of its slot when its connection is gone). */
    private static void dropSlots(TestDatabase db) {
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            exec(db.dataSource(), "select pg_drop_replication_slot(slot_name) from pg_replication_slots where database = current_database()");
            return true;
        });
    }

    private static Main start(String profile, Properties p) {
        Main main = OnewayMain.create(profile, p);
        main.start();
        return main;
    }

    private static String shopSchema() {
        try {
            return new String(ReplicationFixture.class.getResourceAsStream("/shop-schema.sql").readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
