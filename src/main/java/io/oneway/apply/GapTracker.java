package io.oneway.apply;

/**
 * When to ask a source again for the first position missing on this side (the founding
 * document's step 2, with the timing that keeps a resend from multiplying traffic):
 * <ul>
 * <li>a gap seen in a frame (a later change arrived, and the resequencer already waited for the
 * missing one) is asked for at once;</li>
 * <li>a gap known only from a heartbeat (the sender sent further than what arrived) is usually
 * frames still queued behind it, so it is asked for only once it lasted {@code resendAfter}
 * without progress;</li>
 * <li>once asked for, it is asked for again when a heartbeat said the request was answered and
 * {@code settle} ms passed (the answer came before the heartbeat, and the resequencer held it at
 * most that long, so it was lost), and otherwise once no frame arrived for
 * {@code rerequestAfter}, doubling up to {@code maxRerequestAfter}: the request or every
 * heartbeat was lost. While frames still arrive, the answer may wait behind them, and a repeat
 * would only lengthen the queue; but no longer than three times that wait, since a request lost
 * while new changes keep coming would otherwise wait for the send window to fill.</li>
 * </ul>
 * Pieces of the missing position arriving count as progress.
 */
final class GapTracker {

    private final long resendAfterMillis;
    private final long rerequestAfterMillis;
    private final long maxRerequestAfterMillis;
    private final long settleMillis;

    private long missing = -1;
    private long since;
    private long requestedAt;
    private long requestId = -1;
    private long interval;
    private long answered = -1;
    private long answeredAt;
    private long lastFrame;

    GapTracker(long resendAfterMillis, long rerequestAfterMillis, long maxRerequestAfterMillis, long settleMillis) {
        this.resendAfterMillis = resendAfterMillis;
        this.rerequestAfterMillis = rerequestAfterMillis;
        this.maxRerequestAfterMillis = maxRerequestAfterMillis;
        this.settleMillis = settleMillis;
    }

    /** A heartbeat reported the request with this id answered. */
    void answered(long id, long now) {
        if (id > answered) {
            answered = id;
            answeredAt = now;
        }
    }

    /**
     * @param firstMissing first position neither received nor parked; -1 when nothing is missing
     * @param seenInFrame  a frame beyond the gap just arrived
     * @param now          the time, ms
     * @return true when the gap is to be asked for now (the caller then calls {@link #requested})
     */
    boolean due(long firstMissing, boolean seenInFrame, long now) {
        if (firstMissing < 0) {
            missing = -1;
            return false;
        }
        if (firstMissing != missing) {
            missing = firstMissing;
            since = now;
            requestedAt = 0;
            interval = rerequestAfterMillis;
        }
        if (requestedAt == 0) {
            return seenInFrame || now - since >= resendAfterMillis;
        }
        return answered >= requestId && now - answeredAt >= settleMillis || now - Math.max(requestedAt, lastFrame) >= interval
                || now - requestedAt >= 3 * interval;
    }

    /** A request with this id was sent for the current gap. */
    void requested(long id, long now) {
        if (requestedAt != 0) {
            interval = Math.min(interval * 2, maxRerequestAfterMillis);
        }
        requestedAt = now;
        requestId = id;
    }

    /** A frame of the source arrived (whatever its positions): the link still delivers what was queued. */
    void frameArrived(long now) {
        lastFrame = now;
    }

    /** Something of the missing position arrived (a piece): wait before asking again. */
    void progress(long now) {
        since = now;
        if (requestedAt != 0) {
            requestedAt = now;
        }
    }

    /** The first missing position being tracked, or -1. */
    long missing() {
        return missing;
    }

    /** Since when it is missing, ms. */
    long since() {
        return since;
    }
}
