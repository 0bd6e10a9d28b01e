package io.oneway.send;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayDeque;

import javax.sql.DataSource;

import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.support.OnewayMetrics;
import io.oneway.support.SqlScript;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ChunkFrame;
import io.oneway.wire.MessageEncoder;
import io.oneway.wire.WindowNote;

/**
 * The sender's flow control: what was sent last, what the central database holds durably
 * ({@code received}: applied, or staged as part of a large transaction), how far ahead of that
 * sending may run (in changes and in bytes), and when unreceived changes are due again. Sending
 * resumes after {@code received} after a restart, so nothing is skipped; the highest position
 * sent is written down before it is sent, so an ack above it can be recognised as forged.
 */
public final class SendWindow {

    /** Headers of a range to (re)send, read by sql/remote/queries/read-change-range.sql. */
    public static final String RESEND_FROM = "OnewayResendFrom";
    public static final String RESEND_TO = "OnewayResendTo";
    /** Exchange property set by {@link #noteFirstSend}: the bytes a message adds to the window. */
    static final String HELD_BYTES = "OnewayHeldBytes";

    private static final Logger LOG = LoggerFactory.getLogger(SendWindow.class);
    private final DataSource remote;
    private final SourceIdentity identity;
    private final long window;
    private final long windowBytes;
    private final long retransmitAfterMillis;
    private final long maxRetransmitAfterMillis;
    private final long retransmitChunk;
    private final OnewayMetrics metrics;
    /** {through, bytes} of each message sent for the first time and not yet received */
    private final ArrayDeque<long[]> inFlight = new ArrayDeque<>();

    private boolean loaded;
    private long acked;
    private long received;
    private long sentThrough;
    private long lastSent;
    private long inFlightBytes;
    private long waitingSince;
    private long lastHeard;
    /** When a message last went out for the first time (epoch ms), or when this replicator started. */
    private long lastSentAt = System.currentTimeMillis();
    /** The highest position captured and numbered, as the transfer monitor last read it. */
    private long captured;
    private long retransmitAfter;
    private volatile boolean verifying;
    private final SourceClock clock = new SourceClock();

    public SendWindow(DataSource remote, SourceIdentity identity, long window, long windowBytes, long retransmitAfterMillis,
            long maxRetransmitAfterMillis, long retransmitChunk, OnewayMetrics metrics) {
        this.metrics = metrics;
        this.remote = remote;
        this.identity = identity;
        this.window = window;
        this.windowBytes = windowBytes;
        this.retransmitAfterMillis = retransmitAfterMillis;
        this.maxRetransmitAfterMillis = maxRetransmitAfterMillis;
        this.retransmitChunk = retransmitChunk;
        this.retransmitAfter = retransmitAfterMillis;
    }

    public synchronized long lastSent() {
        load();
        return lastSent;
    }

    /** The transfer monitor read the highest position captured and numbered. */
    public synchronized void captured(long position) {
        captured = Math.max(captured, position);
    }

    /** The remote database's clock, as the transfer monitor last read it (heartbeats carry it). */
    public SourceClock clock() {
        return clock;
    }

    /** The highest position captured, as last read, and never below what was sent. */
    public synchronized long captured() {
        return Math.max(captured, lastSent());
    }

    /** The highest position that may be sent now. */
    public synchronized long sendLimit() {
        load();
        return inFlightBytes >= windowBytes ? lastSent : received + window;
    }

    /**
     * For heartbeats: what is held as received when the window is full and changes wait to be sent, else -1. A frame
     * says so when it fills the window; an ack that then moves received without opening the window (a wide change still
     * in flight) is answered by the next heartbeat.
     */
    public synchronized long receivedIfFull() {
        return sendLimit() <= lastSent && captured > lastSent ? received : -1;
    }

    /** The highest position ever sent (durable). */
    public synchronized long sentThrough() {
        load();
        return sentThrough;
    }

    /** Everything at or below it is held by the central database, as its last ack said. */
    public synchronized long received() {
        load();
        return received;
    }

    /** When a verified ack last arrived (epoch ms), 0 for never. */
    public synchronized long lastHeard() {
        return lastHeard;
    }

    /** When a message last went out for the first time (epoch ms), or when this replicator started. */
    public synchronized long lastSentAt() {
        return lastSentAt;
    }

    public synchronized long acked() {
        load();
        return acked;
    }

    /**
     * Before a frame or piece goes out for the first time: what it tells of the window ({@link WindowNote}), and the bytes
     * it adds to the window (what the central side holds of it: its changes' {@link ChangeRecord#heldBytes()}, or the
     * piece), so that "full" here is exactly what stops the next poll (see {@link #sendLimit()}).
     */
    public synchronized void noteFirstSend(Message message) {
        load();
        Object body = message.getBody();
        long through;
        long bytes = 0;
        boolean lastPiece = true;
        if (body instanceof ChunkFrame chunk) {
            through = chunk.chunk().change().position();
            bytes = chunk.chunk().piece().length();
            lastPiece = chunk.chunk().index() == chunk.chunk().count() - 1;
        } else {
            ChangeFrame frame = (ChangeFrame) body;
            through = frame.last();
            for (ChangeRecord c : frame.changes()) {
                bytes += c.heldBytes();
            }
        }
        message.getExchange().setProperty(HELD_BYTES, bytes);
        boolean full = lastPiece && (through - received >= window || inFlightBytes + bytes >= windowBytes);
        boolean halfFull = through - received >= Math.max(1, window / 2) || inFlightBytes + bytes >= windowBytes / 2;
        note(message, full ? WindowNote.full(received) : halfFull ? new WindowNote(true, -1) : WindowNote.ROOM);
    }

    /** Before changes go out again (a resend request, a retransmission): a window that is full now says so. */
    public synchronized void noteResend(Message message) {
        load();
        if (lastSent - received >= window || inFlightBytes >= windowBytes) {
            note(message, WindowNote.full(received));
        }
    }

    private static void note(Message message, WindowNote note) {
        if (note == WindowNote.ROOM) {
            return;
        }
        if (message.getBody() instanceof ChunkFrame chunk) {
            message.setBody(chunk.with(note));
        } else {
            message.setBody(message.getBody(ChangeFrame.class).with(note));
        }
    }

    /** Before a message goes out: its highest position is written down first. */
    public synchronized void beforeSend(Exchange exchange) throws SQLException {
        load();
        long through = exchange.getProperty(MessageEncoder.SENT_THROUGH, Long.class);
        if (through > sentThrough) {
            try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/record-sent.sql"))) {
                ps.setLong(1, through);
                ps.setLong(2, through);
                ps.executeUpdate();
            }
            sentThrough = through;
        }
    }

    /** After a message went out for the first time. */
    public synchronized void sent(Exchange exchange) {
        load();
        long through = Math.max(lastSent, exchange.getProperty(MessageEncoder.SENT_THROUGH, Long.class));
        long bytes = exchange.getProperty(HELD_BYTES, Long.class);
        if (through > lastSent && lastSent <= received) {
            waitingSince = System.currentTimeMillis();
        }
        lastSent = through;
        lastSentAt = System.currentTimeMillis();
        inFlight.addLast(new long[] {through, bytes});
        inFlightBytes += bytes;
    }

    /** While an ack that moved is being checked against the log: the central side is alive, so nothing is due again. */
    public void verifying(boolean now) {
        verifying = now;
    }

    /** A verified ack arrived, whether it moved anything or repeated the last one: the central side is alive. */
    public synchronized void heard() {
        lastHeard = System.currentTimeMillis();
    }

    /** A verified ack moved the acknowledged or the received position (both durable already). */
    public synchronized void delivered(long newAcked, long newReceived) {
        load();
        acked = Math.max(acked, newAcked);
        if (newReceived > received) {
            received = newReceived;
            lastSent = Math.max(lastSent, received);
            waitingSince = System.currentTimeMillis();
            retransmitAfter = retransmitAfterMillis;
            while (!inFlight.isEmpty() && inFlight.peekFirst()[0] <= received) {
                inFlightBytes -= inFlight.removeFirst()[1];
            }
        }
    }

    /**
     * Retransmission: when changes were sent and neither has the received position moved nor
     * any ack arrived for a while (the central side may have lost the last message and every
     * heartbeat, or its requests and acks were lost), the oldest unreceived ones are due again;
     * the wait doubles each time, up to its maximum. While acks arrive, the central side is alive
     * and asks for what it misses itself, so nothing is sent twice for nothing.
     * @return true when the range headers were set
     */
    public synchronized boolean retransmitDue(Message message) {
        load();
        long now = System.currentTimeMillis();
        if (verifying || lastSent <= received || now - Math.max(waitingSince, lastHeard) < retransmitAfter) {
            return false;
        }
        long to = Math.min(lastSent, received + retransmitChunk);
        message.setHeader(RESEND_FROM, received + 1);
        message.setHeader(RESEND_TO, to);
        if (retransmitAfter == retransmitAfterMillis) {
            LOG.info("Nothing after position {} confirmed for {} ms: sending {}..{} again (repeated at growing intervals, up to {} ms, "
                    + "while it lasts)", received, now - waitingSince, received + 1, to, maxRetransmitAfterMillis);
        } else {
            LOG.debug("Nothing after position {} confirmed for {} ms: sending {}..{} again", received, now - waitingSince, received + 1, to);
        }
        waitingSince = now;
        retransmitAfter = Math.min(retransmitAfter * 2, maxRetransmitAfterMillis);
        metrics.count("oneway_retransmits", identity.source(), 1);
        return true;
    }

    private void load() {
        if (loaded) {
            return;
        }
        SenderState s = SenderState.read(remote);
        acked = s.acked();
        received = Math.max(s.received(), s.acked());
        sentThrough = s.sent();
        lastSent = received;
        waitingSince = System.currentTimeMillis();
        loaded = true;
        LOG.info("Source {}: sending resumes after position {} (applied on the central database up to {})", identity.source(), received,
                acked);
    }
}
