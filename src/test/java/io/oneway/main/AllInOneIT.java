package io.oneway.main;

import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.camel.main.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import io.oneway.testing.Ports;
import io.oneway.testing.ScratchDirs;

/** The all-in-one default boots as `mvn camel:run` would: embedded servers, SQL installed, demo changes captured with positions. */
class AllInOneIT {

    private static Main main;
    private static PGSimpleDataSource remote;
    private static PGSimpleDataSource central;
    private static int managementPort;

    @BeforeAll
    static void boot() throws Exception {
        Path data = ScratchDirs.create("oneway-all-in-one");
        int remotePort = Ports.free();
        int centralPort = Ports.free();
        managementPort = Ports.free();
        Properties p = new Properties();
        p.setProperty("oneway.embedded.data-dir", data.toString());
        p.setProperty("oneway.embedded.remote-port", Integer.toString(remotePort));
        p.setProperty("oneway.embedded.central-port", Integer.toString(centralPort));
        p.setProperty("oneway.embedded.broker-port", Integer.toString(Ports.free()));
        p.setProperty("camel.management.port", Integer.toString(managementPort));
        p.setProperty("oneway.demo.period", "100");
        main = OnewayMain.create(null, p);
        main.start();
        remote = dataSource(remotePort);
        central = dataSource(centralPort);
    }

    @AfterAll
    static void shutdown() {
        if (main != null) {
            main.stop();
        }
    }

    @Test
    void demo_changes_are_captured_with_gapless_positions() {
        await().atMost(Duration.ofSeconds(60)).until(() -> number(remote, "select count(*) from oneway.change_log_status where position is not null") >= 50);
        // one statement, one snapshot: the demo writer and the assigner go on meanwhile
        Map<String, Object> positions = rows(remote, "select max(position) as highest, count(position) as numbered from oneway.change_log_status").get(0);
        assertEquals(((Number) positions.get("highest")).longValue(), ((Number) positions.get("numbered")).longValue(), "positions 1..max without holes");
        assertEquals(3L, number(remote, "select count(*) from oneway.captured_table"));
        assertTrue(number(remote, "select count(distinct object_type) from oneway.change_log") >= 3);
    }

    @Test
    void both_databases_have_the_oneway_schema_and_the_demo_tables() {
        assertEquals(1L, number(central, "select count(*) from pg_tables where schemaname = 'oneway' and tablename = 'receive_run'"));
        assertEquals(1L, number(central, "select count(*) from pg_views where schemaname = 'oneway' and viewname = 'receive_log'"));
        assertEquals(3L, number(central, "select count(*) from pg_tables where schemaname = 'demo'"));
    }

    @Test
    void the_health_endpoint_reports_up_and_jolokia_answers() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + "/observe/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode(), health.body());
        assertTrue(health.body().contains("UP"), health.body());
        HttpResponse<String> jolokia = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort
                + "/observe/jolokia/read/org.apache.camel:context=oneway,type=context,name=%22oneway%22/State")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, jolokia.statusCode(), jolokia.body());
        assertTrue(jolokia.body().contains("Started"), jolokia.body());
    }

    @Test
    void jolokia_is_read_only_but_for_what_hawtio_draws_routes_with() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String context = "org.apache.camel:context=oneway,type=context,name=%22oneway%22";
        HttpResponse<String> dump = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort
                + "/observe/jolokia/exec/" + context + "/dumpRoutesAsXml()")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(dump.body().contains("\"status\":200") && dump.body().contains("send-changes"), dump.body());
        assertTrue(dump.body().contains("jms://queue:oneway.branch1.changes") && !dump.body().contains("{{endpoint}}"),
                "the templated route shows the queue it reads: " + dump.body());
        HttpResponse<String> stop = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort
                + "/observe/jolokia/exec/" + context + "/stop()")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(stop.body().contains("\"status\":403"), stop.body());
        HttpResponse<String> write = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort
                + "/observe/jolokia/write/" + context + "/Tracing/true")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(write.body().contains("\"status\":403"), write.body());
        assertEquals("Started", main.getCamelContext().getStatus().name());
    }

    @Test
    void every_metric_the_alert_rules_and_the_dashboard_name_is_exported_with_help_text() throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort
                + "/observe/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        java.util.Set<String> named = new java.util.TreeSet<>();
        for (String file : List.of("monitoring/prometheus-alerts.yml", "monitoring/grafana-dashboard.json")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("oneway_[a-z_]+").matcher(Files.readString(Path.of(file)));
            while (m.find()) {
                named.add(m.group());
            }
        }
        assertTrue(named.size() >= 15, named.toString());
        for (String name : named) {
            String family = name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
            assertTrue(metrics.contains("\n" + name + "{") || metrics.contains("\n" + name + " "), name + " is not exported");
            assertTrue(metrics.contains("# HELP " + family), name + " has no HELP text");
        }
    }

    private static PGSimpleDataSource dataSource(int port) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl("jdbc:postgresql://localhost:" + port + "/postgres");
        ds.setUser("postgres");
        return ds;
    }

}
