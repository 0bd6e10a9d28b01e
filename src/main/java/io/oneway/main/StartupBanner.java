package io.oneway.main;

import org.apache.camel.spi.PropertiesComponent;

/** The start-up message of the all-in-one default: how to reach the databases and the monitoring endpoints. */
final class StartupBanner {

    private StartupBanner() {
    }

    static String text(EmbeddedPostgresServer remote, EmbeddedPostgresServer central, PropertiesComponent properties) {
        String port = properties.resolveProperty("camel.management.port").orElse("9876");
        String base = "http://localhost:" + port;
        return String.join(System.lineSeparator(),
                "",
                "Oneway all-in-one is running. Demo changes are written to the remote database every "
                        + properties.resolveProperty("oneway.demo.period").orElse("?") + " ms.",
                "  remote database : psql -h localhost -p " + remote.port() + " -U postgres postgres",
                "  central database: psql -h localhost -p " + central.port() + " -U postgres postgres",
                "  captured changes: select position, txid, tx_end, object_type, object_id, op, state from oneway.change_log_status order by position desc nulls first limit 20;",
                "  health          : " + base + "/observe/health",
                "  metrics         : " + base + "/observe/metrics",
                "  Jolokia (Hawtio): " + base + "/observe/jolokia   (Hawtio: mvn -f hawtio/pom.xml compile exec:java, then open http://localhost:8090/hawtio)",
                "");
    }
}
