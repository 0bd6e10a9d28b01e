package io.oneway.apply;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.oneway.support.OnewayMetrics;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ControlMessage;

/**
 * The founding document's step 2, per source: a change at the expected position is applied,
 * a lower one dropped, a higher one held while the missing range is requested from the source,
 * and requested again while it stays missing. Returns the resend requests and acks to send back.
 */
public final class GapDetector {

    private final ChangeApplier applier;
    private final OnewayMetrics metrics;
    private final ReceiverSettings settings;
    private final Map<String, SourceReceiver> receivers = new ConcurrentHashMap<>();

    public GapDetector(ChangeApplier applier, OnewayMetrics metrics, ReceiverSettings settings) {
        this.applier = applier;
        this.metrics = metrics;
        this.settings = settings;
    }

    /** A verified frame, in resequenced order: @return a resend request, or null */
    public ControlMessage onFrame(ChangeFrame frame) throws SQLException {
        return receiver(frame.source()).onFrame(frame).orElse(null);
    }

    /** A verified heartbeat: @return a resend request when the tail went missing, or null */
    public ControlMessage onHeartbeat(ControlMessage heartbeat) throws SQLException {
        return receiver(heartbeat.source()).onHeartbeat(heartbeat).orElse(null);
    }

    /** Called periodically: the acks and repeated resend requests due for every source seen. */
    public List<ControlMessage> tick() {
        List<ControlMessage> out = new ArrayList<>();
        for (SourceReceiver r : receivers.values()) {
            out.addAll(r.tick());
        }
        return out;
    }

    private SourceReceiver receiver(String source) {
        return receivers.computeIfAbsent(source, s -> new SourceReceiver(s, applier, metrics, settings));
    }
}
