package io.oneway.apply;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.oneway.support.OnewayMetrics;
import io.oneway.support.Refusals;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChunkFrame;
import io.oneway.wire.ControlMessage;

/**
 * The founding document's step 2, per source: a change at the expected position is applied,
 * a lower one dropped, a higher one held while the missing range is requested from the source,
 * and requested again while it stays missing. Returns the resend requests, acks and answers to
 * send back.
 */
public final class GapDetector {

    private final ChangeApplier applier;
    private final OnewayMetrics metrics;
    private final Refusals refusals;
    private final ReceiverSettings settings;
    private final Map<String, SourceReceiver> receivers = new ConcurrentHashMap<>();
    // request ids grow across restarts of this replicator, so a remote never takes a new request for an old one
    private final AtomicLong requestIds = new AtomicLong(System.currentTimeMillis() * 1000);

    public GapDetector(ChangeApplier applier, OnewayMetrics metrics, Refusals refusals, ReceiverSettings settings) {
        this.applier = applier;
        this.metrics = metrics;
        this.refusals = refusals;
        this.settings = settings;
    }

    /** A verified frame, in resequenced order: @return a resend request, or null */
    public ControlMessage onFrame(ChangeFrame frame) throws SQLException {
        return receiver(frame.source()).onFrame(frame).orElse(null);
    }

    /** A verified piece of a large change: @return a resend request, or null */
    public ControlMessage onChunk(ChunkFrame frame) throws SQLException {
        return receiver(frame.source()).onChunk(frame).orElse(null);
    }

    /** A verified heartbeat: @return a resend request when the tail went missing, or null */
    public ControlMessage onHeartbeat(ControlMessage heartbeat) throws SQLException {
        return receiver(heartbeat.source()).onHeartbeat(heartbeat).orElse(null);
    }

    /** A verified digest request: @return the fingerprints asked for */
    public ControlMessage onDigestRequest(ControlMessage request) throws SQLException {
        return receiver(request.source()).onDigestRequest(request).orElse(null);
    }

    /** Called periodically: the acks and repeated resend requests due for every source seen. */
    public List<ControlMessage> tick() {
        List<ControlMessage> out = new ArrayList<>();
        for (SourceReceiver r : receivers.values()) {
            out.addAll(r.tick());
        }
        return out;
    }

    /** Reads these sources' durable progress now, before anything of them arrives. */
    public void prepare(List<String> sources) {
        sources.forEach(source -> receiver(source).prepare());
    }

    /** Each source's receiving state as last published; never waits for an apply. */
    public Map<String, ReceiverStatus> statuses() {
        Map<String, ReceiverStatus> out = new TreeMap<>();
        receivers.forEach((source, r) -> out.put(source, r.status()));
        return out;
    }

    private SourceReceiver receiver(String source) {
        return receivers.computeIfAbsent(source, s -> new SourceReceiver(s, applier, metrics, refusals, settings, requestIds));
    }
}
