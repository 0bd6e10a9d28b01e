package io.oneway.support;

import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;

/**
 * Oneway's own meters (prefix {@code oneway_}), published with Camel's on /observe/metrics, each
 * with its HELP text. Each side registers its meters when it starts ({@link #counter},
 * {@link #gauge}), so every one is exported from the start, at zero.
 */
public final class OnewayMetrics implements CamelContextAware {

    /** What each meter means: the Prometheus HELP text. Counters are exported with the suffix _total. */
    static final Map<String, String> HELP = Map.ofEntries(
            Map.entry("oneway_captured_position", "highest position given to a change on the remote database"),
            Map.entry("oneway_sent_position", "highest position the remote has sent"),
            Map.entry("oneway_received_position", "every change at or below it is held by the central database (applied or staged), as each side (side) knows it"),
            Map.entry("oneway_acknowledged_position", "every change at or below it is applied on the central database, digest verified"),
            Map.entry("oneway_applied_position", "every change at or below it is applied on the central database"),
            Map.entry("oneway_announced_position", "highest position the source said it sent (heartbeats, frames)"),
            Map.entry("oneway_backlog_changes", "changes captured (side remote) or announced or captured as the source said (side central) and not yet applied"),
            Map.entry("oneway_source_clock_behind_seconds", "how far the source's clock (its database's) is behind this replicator's, as its "
                    + "heartbeats tell (negative: ahead); 0 when within 2 s or not known. The lag is counted on this replicator's clock"),
            Map.entry("oneway_lag_seconds", "side remote: age of the oldest change not yet applied; side central: age of the last applied change while announced changes wait, else the last apply's delay for silent-after ms"),
            Map.entry("oneway_parked_changes", "changes held in memory ahead of the applied position"),
            Map.entry("oneway_parked_bytes", "bytes of changes and pieces held in memory ahead of the applied position"),
            Map.entry("oneway_staged_pending", "changes of a large transaction staged on the central database, waiting for its end"),
            Map.entry("oneway_stalled", "1 while the transfer is stalled in this state (central-silent, source-silent, broker-unreachable, database-unreachable, capture-stopped, capture-off, "
                    + "sender-stopped, route-stopped, route-failing, lock-wait, monitor-stopped, apply-failing, falling-behind) as this side (side) sees it"),
            Map.entry("oneway_halted", "stops in force: blocked changes and digest mismatches (side transfer), halted sources (side apply)"),
            Map.entry("oneway_messages_sent", "messages sent"),
            Map.entry("oneway_bytes_sent", "bytes of messages sent"),
            Map.entry("oneway_messages_received", "messages received and admitted"),
            Map.entry("oneway_bytes_received", "bytes of messages received"),
            Map.entry("oneway_refused_messages", "messages refused, by reason (malformed, unknown-source, wrong-source, integrity, incarnation)"),
            Map.entry("oneway_refused_changes", "changes dropped from their frame because their integrity code did not verify"),
            Map.entry("oneway_resend_requests", "resend requests made (central) or received (remote; the copies of a request count once)"),
            Map.entry("oneway_retransmits", "ranges sent again because the central side was silent"),
            Map.entry("oneway_applied_changes", "changes applied on the central database"),
            Map.entry("oneway_duplicate_changes", "changes received again after they were applied or staged, and dropped"),
            Map.entry("oneway_staged_changes", "changes staged as part of a large transaction"),
            Map.entry("oneway_halts", "sources halted by a change that could not be applied"),
            Map.entry("oneway_integrity_alarms", "acks refused because they claim what cannot be, by kind"),
            Map.entry("oneway_snapshot_rows", "rows of a table's running snapshot: done (logged as chunks) and total (counted at its start), by count"),
            Map.entry("oneway_snapshot_chunks", "chunks of a table's running snapshot logged"),
            Map.entry("oneway_snapshot_lock_wait_seconds", "how long writers of the table have kept a running snapshot from its SHARE lock (0: the last try had it)"),
            Map.entry("oneway_wal_behind_bytes", "bytes of WAL written on the remote database since what capture from the WAL confirmed as recorded"),
            Map.entry("oneway_digest_mismatches", "acks whose digest differed from what the remote sent (the transfer halts)"));

    /** The reasons a message is refused, registered at start so each is exported from zero. */
    public static final Set<String> REFUSAL_REASONS = Set.of("malformed", "unknown-source", "wrong-source", "integrity", "incarnation");

    private CamelContext camelContext;
    private volatile MeterRegistry registry;

    @Override
    public void setCamelContext(CamelContext camelContext) {
        this.camelContext = camelContext;
    }

    @Override
    public CamelContext getCamelContext() {
        return camelContext;
    }

    /** Adds to a counter of a source, with optional tag pairs (name, value, ...). */
    public void count(String name, String source, long amount, String... tags) {
        counter(name, source, tags).increment(amount);
    }

    /** Registers (or finds) a counter of a source, so it is exported from zero. */
    public Counter counter(String name, String source, String... tags) {
        return Counter.builder(name).description(help(name)).tags(tags(source, tags)).register(registry());
    }

    /** Registers a gauge of a source, read when scraped: the supplier must never wait for work in progress. */
    public void gauge(String name, String source, Supplier<Number> value, String... tags) {
        Gauge.builder(name, value).description(help(name)).tags(tags(source, tags)).register(registry());
    }

    /** The source tag (none for a meter of a whole side, e.g. oneway_halted{side}) and the others. */
    private static Tags tags(String source, String... pairs) {
        return (source == null ? Tags.empty() : Tags.of("source", source)).and(pairs);
    }

    private static String help(String name) {
        String help = HELP.get(name);
        if (help == null) {
            throw new IllegalArgumentException("meter " + name + " has no HELP text in OnewayMetrics");
        }
        return help;
    }

    private MeterRegistry registry() {
        MeterRegistry r = registry;
        if (r == null) {
            synchronized (this) {
                if (registry == null) {
                    Set<MeterRegistry> found = camelContext == null ? Set.of() : camelContext.getRegistry().findByType(MeterRegistry.class);
                    registry = found.isEmpty() ? new SimpleMeterRegistry() : found.iterator().next();
                }
                r = registry;
            }
        }
        return r;
    }
}
