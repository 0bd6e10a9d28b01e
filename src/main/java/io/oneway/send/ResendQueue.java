package io.oneway.send;

import org.apache.camel.Message;

import io.oneway.support.OnewayMetrics;
import io.oneway.support.RecentEvents;
import io.oneway.support.Refusals;
import io.oneway.wire.ControlMessage;

/**
 * Resend requests, taken off the reply consumer so that acks are never delayed behind a resend:
 * the consumer only hands a request over, and a route of its own serves the newest one. A
 * request that arrives while one waits replaces it (the newer one reflects what the central
 * database misses now), and a request for the range just served is answered without sending it
 * again (requests that queued up while the link was down arrive together). Heartbeats carry the
 * id of the last request answered, so the central database knows when an answer has passed.
 */
public final class ResendQueue {

    private final SourceIdentity identity;
    private final SendWindow window;
    private final long dedupMillis;
    private final OnewayMetrics metrics;
    private final Refusals refusals;
    /** The requests of the last while, for the transfer monitor: asked again and again while no ack comes, what is sent does not arrive. */
    private final RecentEvents requests = new RecentEvents(1000);

    private ControlMessage pending;
    private long lastOffered = -1;
    private long serving;
    private long answered;
    private long lastFrom = -1;
    private long lastTo = -1;
    private int lastPiece;
    private long lastAt;

    public ResendQueue(SourceIdentity identity, SendWindow window, long dedupMillis, OnewayMetrics metrics, Refusals refusals) {
        this.identity = identity;
        this.metrics = metrics;
        this.refusals = refusals;
        this.window = window;
        this.dedupMillis = dedupMillis;
    }

    /** A verified resend request from the reply consumer. */
    public synchronized void offer(ControlMessage request) {
        if (!identity.incarnation().equals(request.incarnation())) {
            refusals.refuse(identity.source(), "incarnation", "resend request of incarnation " + request.incarnation()
                    + ": this remote database is incarnation " + identity.incarnation() + " (the central side replicates an earlier install of it)");
            return;
        }
        // the central side sends each request more than once (oneway.apply.request-copies): count it once
        if (request.id() != lastOffered) {
            metrics.count("oneway_resend_requests", identity.source(), 1);
            lastOffered = request.id();
            requests.add(System.currentTimeMillis(), request.from() + ".." + request.to());
        }
        pending = request;
    }

    /** @return the requests (each once, whatever its copies) at or after {@code fromMillis}, the last with its positions; or null */
    public RecentEvents.Recent requestsSince(long fromMillis) {
        return requests.since(fromMillis);
    }

    /**
     * The next request to serve: sets the range headers (what is acknowledged already and what
     * was never sent are left out).
     * @return false when nothing is to be sent now
     */
    public synchronized boolean next(Message message) {
        ControlMessage request = pending;
        pending = null;
        if (request == null) {
            return false;
        }
        long from = Math.max(request.from(), window.acked() + 1);
        long to = Math.min(request.to(), window.sentThrough());
        int piece = from == request.from() ? request.piece() : 0;
        long now = System.currentTimeMillis();
        if (from > to || from == lastFrom && to <= lastTo && piece >= lastPiece && now - lastAt < dedupMillis) {
            answered = Math.max(answered, request.id());
            return false;
        }
        lastFrom = from;
        lastTo = to;
        lastPiece = piece;
        lastAt = now;
        serving = request.id();
        message.setHeader(SendWindow.RESEND_FROM, from);
        message.setHeader(SendWindow.RESEND_TO, to);
        message.setHeader(FrameBuilder.RESEND_PIECE, piece);
        return true;
    }

    /** The request being served has been sent. */
    public synchronized void served() {
        answered = Math.max(answered, serving);
    }

    /**
     * A heartbeat: the highest position captured, the highest sent, the last request answered, now by the remote database's
     * clock, and whether the window is full.
     */
    public synchronized ControlMessage heartbeat() {
        return ControlMessage.heartbeat(identity.source(), identity.incarnation(), window.captured(), window.lastSent(), answered,
                window.clock().now(), window.receivedIfFull());
    }
}
